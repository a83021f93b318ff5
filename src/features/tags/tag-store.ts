import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ResultCard } from '../../../contract/documents';
import { BOOKMARK_TAG_ID, type Tag } from '../../../contract/tags';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import type { WorkspaceClient } from '../../workspace-client';

/**
 * The tab's view of tags and bookmarks, read from the worker's mirror (worker/domains/tags/):
 * the user's tags (one list per client, shared by every card, re-read on 'changed' for store
 * 'tags') and each shown document's tag ids (asked in one tags.ofDocuments call per frame for
 * every card that mounts together, re-read on 'changed' for store 'document_tags'). Writes go
 * through tags.setDocument, which the worker applies optimistically and rolls back when the
 * server refuses; the card shows the new state at once and puts the old one back on failure.
 */

type TagsStore = {
  get(): readonly Tag[] | null;
  subscribe(listener: () => void): () => void;
};

const stores = new WeakMap<WorkspaceClient, TagsStore>();

function tagsStore(client: WorkspaceClient): TagsStore {
  const held = stores.get(client);
  if (held) return held;
  let tags: readonly Tag[] | null = null;
  let round = 0;
  let watching: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const load = () => {
    const mine = ++round;
    client.call('tags.list', {}).then(
      (answer) => {
        if (mine !== round) return;
        tags = answer;
        for (const listener of listeners) listener();
      },
      () => {},
    );
  };
  const store: TagsStore = {
    get: () => tags,
    subscribe(listener) {
      listeners.add(listener);
      if (!watching) {
        watching = client.onEvent((event) => {
          if (event.type === 'changed' && event.store === 'tags') load();
        });
        load();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && watching) {
          watching();
          watching = null;
          // Stale once nobody watches: the next subscriber reads again.
          tags = null;
          round += 1;
        }
      };
    },
  };
  stores.set(client, store);
  return store;
}

/** Every tag of the user but the bookmark (null until read), oldest first. */
export function useUserTags(): readonly Tag[] | null {
  const { client } = useShell();
  const store = tagsStore(client);
  const all = useSyncExternalStore(store.subscribe, store.get, store.get);
  return all === null ? null : all.filter((tag) => tag.id !== BOOKMARK_TAG_ID);
}

type Batch = Map<string, Array<(ids: string[] | null) => void>>;
const batches = new WeakMap<WorkspaceClient, Batch>();
/** tags.ofDocuments takes at most this many deeplinks (contract/tags.ts). */
const OF_DOCUMENTS_MAX = 500;

/** A document's tag ids, asked together with those of every card asking in the same frame. */
function tagIdsOf(client: WorkspaceClient, deeplink: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    let batch = batches.get(client);
    if (!batch) {
      const fresh: Batch = new Map();
      batch = fresh;
      batches.set(client, fresh);
      queueMicrotask(() => {
        batches.delete(client);
        const deeplinks = [...fresh.keys()];
        for (let at = 0; at < deeplinks.length; at += OF_DOCUMENTS_MAX) {
          const part = deeplinks.slice(at, at + OF_DOCUMENTS_MAX);
          client.call('tags.ofDocuments', { deeplinks: part }).then(
            (answer) => {
              for (const d of part) for (const done of fresh.get(d) ?? []) done(answer[d] ?? []);
            },
            () => {
              for (const d of part) for (const done of fresh.get(d) ?? []) done(null);
            },
          );
        }
      });
    }
    const waiting = batch.get(deeplink) ?? [];
    waiting.push(resolve);
    batch.set(deeplink, waiting);
  });
}

export type DocumentTagsState = {
  /** The document's tag ids (the bookmark among them when bookmarked); null until read. */
  ids: readonly string[] | null;
  /**
   * Sets the document's tags to exactly `ids` (optimistic: shown at once, put back with the
   * server's message on failure), creating the tags of `create` in the same call.
   */
  set(ids: readonly string[], create?: ReadonlyArray<{ id: string; tag: string }>): void;
};

/**
 * One document's tags, kept fresh by the worker's 'changed' events for it. `card` (the card the
 * tab shows) goes with each write: the tag pages list the document from the mirror at once.
 */
export function useDocumentTags(deeplink: string, card?: ResultCard): DocumentTagsState {
  const { client } = useShell();
  const [ids, setIds] = useState<readonly string[] | null>(null);
  const shown = useRef<readonly string[] | null>(null);
  shown.current = ids;

  useEffect(() => {
    let alive = true;
    const read = () =>
      void tagIdsOf(client, deeplink).then((answer) => {
        if (alive && answer !== null) setIds(answer);
      });
    setIds(null);
    read();
    const stop = client.onEvent((event) => {
      if (event.type !== 'changed' || event.store !== 'document_tags') return;
      if (event.keys === null || event.keys.includes(deeplink)) read();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, deeplink]);

  const set = useCallback(
    (next: readonly string[], create?: ReadonlyArray<{ id: string; tag: string }>) => {
      const before = shown.current;
      shown.current = [...next];
      setIds(shown.current);
      client
        .call('tags.setDocument', {
          deeplink,
          tag_ids: [...next],
          ...(create?.length ? { create: create.map((c) => ({ ...c })) } : {}),
          ...(card ? { card: cardOnly(card) } : {}),
        })
        .catch((failure: unknown) => {
          setIds((was) => (was !== null && sameIds(was, next) ? before : was));
          showToast('error', userMessage(failure));
        });
    },
    [client, deeplink, card],
  );

  return { ids, set };
}

/** The card's own fields (a feed row's `read` state stays out of the write). */
const cardOnly = (card: ResultCard & { read?: boolean }): ResultCard => {
  const { read: _read, ...rest } = card;
  return rest;
};

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** A fresh id for a tag made in this tab (the optimistic record's key; the server's stands). */
export const newTagId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
