import type { documents } from '../../contract/documents';
import type { Mirror, PatchItem } from '../mirror';
import { sessionChanged } from '../api-errors';
import type { StoreName } from '../../contract/domains';
import type { DomainContext, StoreOf, StoreWatcher } from '../registry';

/**
 * The user's read state in the mirror: store 'read_status' holds one record per read document
 * (key: its deeplink, value: true); absent is unread. The list is pulled once from
 * GET /doc/read_status by cursor (pages of 5000, oldest mark first), then kept by the change
 * feed's 'read_status' entity and by the user's own marks (optimistic, through the outbox). Its
 * progress is one record under LIST_KEY, which no deeplink can equal.
 */

export type S = StoreOf<typeof documents>;
export type Ctx = DomainContext<S>;

export const READ_STORE = 'read_status' satisfies S;
/** Not a deeplink (ids are 1 to 128 visible characters). */
export const READ_LIST_KEY = '\u0000list';
const PAGE = 5000;

type ReadListRecord = { cursor: number; complete: boolean };

const listOf = (mirror: Mirror<S>) => mirror.get<ReadListRecord>(READ_STORE, READ_LIST_KEY);

/** The deeplinks of `keys`: everything but the list record. */
export const deeplinksOf = (keys: string[]) => keys.filter((k) => k !== READ_LIST_KEY);

/** More changed deeplinks than this: the rows are re-read whole (no index walk). */
const ROWS_LOOKUP_MAX = 200;

/**
 * A domain's follower of the read state, for rows that carry it (feed rows, search rows):
 * when read marks change, the tabs re-read the rows (`rowsOf`: their keys in `store`) showing
 * those documents; all of them when the whole list moved or too many marks did.
 */
export const rowsShowingReadState =
  <St extends string>(
    store: StoreName,
    rowsOf: (mirror: Mirror<St>, deeplinks: string[]) => Promise<string[]>,
  ): StoreWatcher<St> =>
  async (keys, { mirror, emit }) => {
    const deeplinks = keys === null ? null : deeplinksOf(keys);
    if (deeplinks?.length === 0) return;
    const rows =
      deeplinks === null || deeplinks.length > ROWS_LOOKUP_MAX
        ? null
        : await rowsOf(await mirror, deeplinks);
    if (rows?.length === 0) return;
    emit({ type: 'changed', store, keys: rows });
  };

/**
 * Pulls the read list from where the mirror left it until the server has no more (shared by
 * concurrent callers). Pages land one by one, each with the cursor it reached.
 */
export const pullReadList = (ctx: Ctx) =>
  ctx.reads.once('read_status.list', async (owner) => {
    const mirror = await ctx.mirror;
    let list = (await listOf(mirror)) ?? { cursor: 0, complete: false };
    for (;;) {
      const page = await ctx.client.call('readList', {
        query: { after: list.cursor, limit: PAGE },
        background: true,
        signal: ctx.signal(),
      });
      list = { cursor: page.cursor, complete: !page.has_more };
      const items: PatchItem<S>[] = page.deeplinks.map((deeplink) => ({
        store: READ_STORE,
        key: deeplink,
        value: true,
      }));
      items.push({ store: READ_STORE, key: READ_LIST_KEY, value: list });
      if (!(await ctx.reads.store(items, owner))) throw sessionChanged('read_status');
      if (!page.has_more || page.deeplinks.length === 0) return list;
    }
  });

/** The list pulled once per mirror: awaited the first time, in the background after that. */
export async function ensureReadList(ctx: Ctx, wait: boolean) {
  const list = await listOf(await ctx.mirror);
  if (list?.complete) return;
  const pulled = pullReadList(ctx);
  if (wait && !list) {
    await pulled.catch(() => {
      // Offline: the marks the mirror holds are the best answer.
    });
  } else ctx.track(pulled.catch(() => {}));
}

/** Whether each deeplink is read, from the mirror (one transaction). */
export async function readStates(
  mirror: Mirror<S>,
  deeplinks: readonly string[],
): Promise<boolean[]> {
  const values = await mirror.getMany<boolean>(READ_STORE, deeplinks);
  return values.map((v) => v === true);
}

/** The mirror writes that mark `deeplinks` read or unread. */
export const readWrites = (deeplinks: readonly string[], read: boolean): PatchItem<S>[] =>
  [...new Set(deeplinks)].map((deeplink) => ({
    store: READ_STORE,
    key: deeplink,
    value: read ? true : undefined,
  }));
