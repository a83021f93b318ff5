import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { BOOKMARK_TAG_ID } from '../../../contract/tags';
import type { DocumentDetail } from '../../../contract/documents';
import { isMobile } from '../../lib/breakpoints';
import { overlayVisible } from '../../lib/overlay';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { routesFor } from '../../lib/routes';
import { RetryAlert } from '../../shell/retry-alert';
import { useShell } from '../../shell-context';
import { ResultCardView } from '../documents';
import { useUserTags } from './tag-store';

/** The most documents one needlbox page lists (tags.documents answers at most 5000). */
export const NEEDLBOX_LIMIT = 200;

/**
 * The source a needlbox page reads a document under. tags.documents answers deeplinks only, and
 * doc.get answers a document the mirror holds whatever the source; a document is kept in the
 * mirror when it is tagged from a card or the preview (tag-controls.tsx). One tagged on another
 * device and never opened here is not held: its row says so.
 */
const NEEDLBOX_SOURCE = 'needlbox';

/** /needlbox/bookmarks/all: the bookmarked documents, as cards that open the preview. */
export function BookmarksPage() {
  return (
    <section className="needlbox-page">
      <TaggedDocuments
        tagId={BOOKMARK_TAG_ID}
        label="Bookmarked documents"
        empty="No bookmarks yet. Bookmark a document from its card or its preview to find it here."
      />
    </section>
  );
}

/** /needlbox/tags/all: the documents carrying any of the user's tags, or one chosen tag. */
export function TagsPage() {
  const tags = useUserTags();
  const [chosen, setChosen] = useState<string | null>(null);
  const current = chosen !== null && tags?.some((t) => t.id === chosen) ? chosen : null;
  return (
    <section className="needlbox-page">
      {tags && tags.length > 0 ? (
        <div className="tag-filter" role="group" aria-label="Show documents tagged">
          <button
            type="button"
            className="pill"
            aria-pressed={current === null}
            onClick={() => setChosen(null)}
          >
            All tags
          </button>
          {tags.map((tag) => (
            <button
              key={tag.id}
              type="button"
              className="pill"
              aria-pressed={current === tag.id}
              onClick={() => setChosen(tag.id)}
            >
              {tag.name}
            </button>
          ))}
        </div>
      ) : null}
      {current !== null ? (
        <SearchInTag name={tags?.find((t) => t.id === current)?.name ?? ''} />
      ) : null}
      <TaggedDocuments
        key={current ?? ''}
        tagId={current ?? undefined}
        label="Tagged documents"
        empty="No tagged documents yet. Tag a document from its card or its preview to find it here."
      />
    </section>
  );
}

/**
 * Search within a tag: the search page narrowed to the documents the user gave this tag (its
 * `tag` parameter, the tag facet; the server reads the user's own tags, search/scope-sql.ts).
 */
function SearchInTag(props: { name: string }) {
  const { product } = useShell();
  const navigate = useNavigate();
  const inputId = useId();
  const [q, setQ] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void navigate({
      to: routesFor(product).search.root,
      search: { ...(q.trim() ? { q: q.trim() } : {}), tag: props.name } as never,
    });
  };
  return (
    <form className="needlbox-search" role="search" onSubmit={submit}>
      <label htmlFor={inputId}>Search in {props.name}</label>{' '}
      <input
        id={inputId}
        type="search"
        value={q}
        placeholder={`Search documents tagged ${props.name}`}
        onChange={(event) => setQ(event.target.value)}
      />{' '}
      <button type="submit" className="button secondary small">
        Search
      </button>
    </form>
  );
}

type Row = { deeplink: string; doc: DocumentDetail | null };

/**
 * The documents of one tag (or of any tag but the bookmark), newest first, re-read when the
 * worker says the links changed (a toggle here, in another tab, or from the server).
 */
function TaggedDocuments(props: { tagId?: string; label: string; empty: string }) {
  const { client } = useShell();
  const width = useViewportWidth();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  const { tagId } = props;

  useEffect(() => {
    let alive = true;
    let latest = 0;
    const docs = new Map<string, DocumentDetail>();
    const read = (mine = ++latest) =>
      void client
        .call('tags.documents', { ...(tagId ? { tag_id: tagId } : {}), limit: NEEDLBOX_LIMIT })
        .then(
          async (deeplinks) => {
            const fetched = await Promise.all(
              deeplinks.map(async (deeplink): Promise<Row> => {
                const held = docs.get(deeplink);
                if (held) return { deeplink, doc: held };
                // Not kept when missing: opened meanwhile, it is held next time.
                const doc = await client
                  .call('doc.get', { source: NEEDLBOX_SOURCE, deeplink })
                  .catch(() => null);
                if (doc) docs.set(deeplink, doc);
                return { deeplink, doc };
              }),
            );
            // A later read (another change) answers for itself.
            if (!alive || mine !== latest) return;
            setError(null);
            setRows(fetched);
          },
          (failure: unknown) => alive && mine === latest && setError(failure),
        );
    read();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'document_tags') read();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, tagId, round]);

  if (error !== null) return <RetryAlert error={error} onRetry={() => setRound((n) => n + 1)} />;
  if (rows === null) {
    return (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  }
  if (rows.length === 0) return <p className="needlbox-empty muted">{props.empty}</p>;
  const newestFirst = [...rows].sort((a, b) => (b.doc?.unix ?? 0) - (a.doc?.unix ?? 0));
  const now = new Date();
  return (
    <ul className="needlbox-cards" aria-label={props.label}>
      {newestFirst.map((row) => (
        <li key={row.deeplink}>
          {row.doc ? (
            <ResultCardView
              card={row.doc}
              board=""
              mobile={isMobile(width)}
              fullScreen={!overlayVisible(width)}
              now={now}
            />
          ) : (
            <p className="muted">
              A document tagged on another device: open it there, or from its feed here, to list it
              on this device.
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
