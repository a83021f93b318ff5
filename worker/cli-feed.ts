import { HOME_BOARD } from '../contract/boards';
import type { OpInput, OpName, OpOutput } from '../contract/worker-api';

/**
 * The CLI's feed and source commands (`npm run ws -- follow|sources|feed`), on the same ops
 * the tabs call. Each answers what it prints.
 */

type Call = <K extends OpName>(op: K, input: OpInput<K>) => Promise<OpOutput<K>>;

/** Rows per window: the op's bound. */
const WINDOW_MAX = 500;

export const FEED_USAGE = `  follow <url | key>          follow an RSS/Atom feed or a website by address (or a catalogue source by key)
  sources                     the sources you follow, with their ingestion status
  feed [board] [--limit N]    the newest N documents (default 20) of a feed (default home)`;

export class CliUsageError extends Error {}

/** `[board] [--limit N]`, in either order. */
export function parseFeedArgs(args: string[]): { board: string; limit: number } {
  let board = HOME_BOARD;
  let limit = 20;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--limit') {
      const text = args[(i += 1)];
      const value = Number(text);
      if (text === undefined || !Number.isInteger(value) || value < 1) {
        throw new CliUsageError(`feed: --limit must be a whole number from 1, not "${text}"`);
      }
      limit = value;
    } else if (args[i].startsWith('--')) {
      throw new CliUsageError(`feed: unknown option "${args[i]}"`);
    } else board = args[i];
  }
  return { board, limit };
}

/** An address has a scheme or a dot; anything else is a catalogue key. */
const looksLikeUrl = (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.includes('.');

export async function follow(call: Call, target: string | undefined) {
  if (!target) throw new CliUsageError('follow needs <url> (or a catalogue key)');
  if (looksLikeUrl(target)) return call('sources.followUrl', { url: target });
  return call('sources.follow', { key: target });
}

export const sources = (call: Call) => call('sources.list', {});

export async function feed(call: Call, args: string[]) {
  const { board, limit } = parseFeedArgs(args);
  const rows: OpOutput<'feed.window'>['rows'] = [];
  let total = 0;
  while (rows.length < limit) {
    const count = Math.min(WINDOW_MAX, limit - rows.length);
    const window = await call('feed.window', {
      board,
      tab: null,
      sort: 'latest',
      offset: rows.length,
      count,
    });
    total = window.total;
    rows.push(...window.rows);
    if (window.rows.length < count) break;
  }
  return { board, total, documents: rows };
}
