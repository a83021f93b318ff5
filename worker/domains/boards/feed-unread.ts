import { FEED, type Ctx, type EntryRecord } from './feed-store';

/** What a mark-all-read names: a board, a date, and maybe a tab and a source. */
export type UnreadBefore = {
  board: string;
  before: number;
  tab?: string | null;
  source?: string | null;
};

/** Entries read from the mirror for one mark-all-read, at most (the server has its own bound). */
const MARK_ALL_SCAN = 100_000;

/**
 * The documents a mark-all-read marks in the mirror: the feed's mirrored entries dated at or
 * before `before` (within `tab` and `source`) that are unread, newest first, at most `limit`,
 * as the server picks them. Read from the feed's time index (the tab's when given), so a feed
 * the mirror does not hold marks nothing here (the server's answer then names what it marked).
 * The boards domain offers it ('feed.unreadBefore'); the documents domain asks, knowing none of
 * the feed's stores.
 */
export async function unreadBefore(
  ctx: Ctx,
  input: UnreadBefore,
  limit: number,
): Promise<string[]> {
  const prefix: Array<string | number> = input.tab ? [input.board, input.tab] : [input.board];
  const mirror = await ctx.mirror;
  const entries = await mirror.transact([FEED], (tx) =>
    tx.indexRange<EntryRecord>(
      FEED,
      input.tab ? 'tab_time' : 'time',
      { lower: prefix, upper: [...prefix, input.before, []] },
      MARK_ALL_SCAN,
    ),
  );
  const wanted = entries
    .filter((e) => !input.source || e.source === input.source)
    .sort((a, b) => b.unix - a.unix || (a.doc < b.doc ? 1 : a.doc > b.doc ? -1 : 0));
  const states = await ctx.ask(
    'read.states',
    wanted.map((e) => e.doc),
  );
  const unread: string[] = [];
  for (let i = 0; i < wanted.length && unread.length < limit; i += 1) {
    if (!states[i]) unread.push(wanted[i].doc);
  }
  return [...new Set(unread)];
}
