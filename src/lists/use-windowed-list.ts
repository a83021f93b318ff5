import { useEffect, useReducer, useState } from 'react';
import type { StoreName } from '../../contract/domains';
import type { OpInput, OpName, OpOutput } from '../../contract/worker-api';
import { useShell } from '../shell-context';
import { createWindowedList, type WindowedList } from './windowed-list';

/** Worker ops that read a list by window: {offset, count, ...} -> {offset, rows, total, ...}. */
export type WindowOpName = {
  [K in OpName]: OpInput<K> extends { offset: number; count: number }
    ? OpOutput<K> extends { offset: number; rows: readonly unknown[]; total: number }
      ? K
      : never
    : never;
}[OpName];

export type WindowRow<K extends WindowOpName> = OpOutput<K>['rows'][number];

type Extra<K extends WindowOpName> = Omit<OpInput<K>, 'offset' | 'count'>;

/**
 * A long list read from the worker by windows, kept fresh by its store's 'changed' events. The
 * template for every list screen: notifications now; feeds, search results and sessions later.
 *
 * `extra` is the rest of the op's input (a feed id, a query); it is read when the list is made,
 * so a screen showing another feed mounts a new list (give it a `key`). `store` may name several
 * stores when rows are drawn from more than one (a feed's cards and their read state).
 */
export function useWindowedList<K extends WindowOpName>(
  op: K,
  store: StoreName | readonly StoreName[],
  options: {
    extra?: Extra<K>;
    keyOf?: (row: WindowRow<K>) => string;
    block?: number;
    maxBlocks?: number;
  } = {},
): WindowedList<WindowRow<K>, OpOutput<K>> {
  const { client } = useShell();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [list] = useState(() => {
    let first = true;
    return createWindowedList<WindowRow<K>, OpOutput<K>>({
      read: (window) => {
        // A User Timing mark: where a list's first read starts, for bench/feed and devtools.
        if (first) performance.mark(`list:${op}`);
        first = false;
        return client.call(op, { ...options.extra, ...window } as OpInput<K>) as Promise<
          OpOutput<K>
        >;
      },
      keyOf: options.keyOf ?? ((row) => (row as { id: string }).id),
      block: options.block,
      maxBlocks: options.maxBlocks,
      onUpdate: rerender,
    });
  });

  // One dependency for the effect: the stores by name, not a new array each render.
  const stores = typeof store === 'string' ? store : store.join(' ');
  useEffect(() => {
    const watched = new Set(stores.split(' '));
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && watched.has(event.store)) list.changed(event.keys);
    });
    // Read on every mount: a change may have happened while no one listened (StrictMode's
    // remount, or a screen that comes back).
    list.refresh();
    return stop;
  }, [client, list, stores]);

  return list;
}
