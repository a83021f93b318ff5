import { useEffect, useState } from 'react';
import type { Board } from '../../contract/boards';
import type { OpInput, OpOutput } from '../../contract/worker-api';
import type { StoreName } from '../../contract/domains';
import { pathSegments } from '../lib/path';
import { usePersonName } from '../features/people';
import { useShell } from '../shell-context';

/**
 * A list op's answer (boards.list, sources.list) kept current with its store's 'changed'
 * events. Null until the first answer, and while `skip`; a failure reads as an empty list (the
 * names fall back to the catalogue's titles).
 */
function useListOp<K extends 'boards.list' | 'sources.list'>(
  op: K,
  store: StoreName,
  skip: boolean,
): OpOutput<K> | null {
  const { client } = useShell();
  const [items, setItems] = useState<OpOutput<K> | null>(null);
  useEffect(() => {
    if (skip) return undefined;
    let alive = true;
    const load = () =>
      client.call(op, {} as OpInput<K>).then(
        (answer) => alive && setItems(answer),
        () => alive && setItems((was) => was ?? ([] as OpOutput<K>)),
      );
    void load();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === store) void load();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, op, store, skip]);
  return items;
}

/** The user's feeds (boards.list), for the side navigation and page headers. */
export function useBoards(skip = false): Board[] | null {
  return useListOp('boards.list', 'boards', skip);
}

/**
 * The name of the feed or source a page shows (000 §2: the page header reads the feed's, app's
 * name): /feeds/{boardId} -> the board's name, /apps/{source} -> the followed source's label.
 * Undefined elsewhere, and until known (the header shows the catalogue title meanwhile).
 */
export function useEntityName(pathname: string): { segment: string; name: string } | undefined {
  const [category, id, personId] = pathSegments(pathname);
  // /settings/contacts/{id}: the person's name (features/people).
  const onPerson = category === 'settings' && id === 'contacts' && personId !== undefined;
  const personName = usePersonName(onPerson ? personId : null);
  const onBoard = category === 'feeds' && id !== undefined && id !== 'home';
  const onApp = category === 'apps' && id !== undefined;
  const boards = useBoards(!onBoard);
  const sources = useListOp('sources.list', 'sources', !onApp);
  if (onPerson) return personName ? { segment: personId, name: personName } : undefined;
  if (onBoard) {
    const board = boards?.find((b) => b.board_id === id);
    return board ? { segment: id, name: board.board_name } : undefined;
  }
  if (onApp) {
    const source = sources?.find((s) => s.key === id);
    return source ? { segment: id, name: source.label } : undefined;
  }
  return undefined;
}

/**
 * Breadcrumb names beyond the page's own entity: a preview's source (/preview/{source}/…) reads
 * as the followed source's label, not its key ("Rss 30767bf853384b0a").
 */
export function useCrumbNames(pathname: string): Record<string, string> | undefined {
  const [category, id] = pathSegments(pathname);
  const onPreview = category === 'preview' && id !== undefined;
  const sources = useListOp('sources.list', 'sources', !onPreview);
  if (!onPreview) return undefined;
  const source = sources?.find((s) => s.key === id);
  return source ? { [id]: source.label } : undefined;
}
