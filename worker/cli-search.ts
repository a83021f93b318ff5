import { FEED_TABS, FeedTabKey } from '../contract/documents';
import { MAX_SEARCH_PAGE } from '../contract/search';
import type { OpInput, OpName, OpOutput } from '../contract/worker-api';
import { CliUsageError } from './cli-feed';

/**
 * `npm run ws -- search <query> [--tab T] [--limit N]`: a search through the worker's
 * 'search.window' (the op the search screen reads), printed as JSON.
 */

type Call = <K extends OpName>(op: K, input: OpInput<K>) => Promise<OpOutput<K>>;

const tabKeys = (from: number, to?: number) =>
  FEED_TABS.slice(from, to)
    .map((t) => t.key)
    .join(', ');

export const SEARCH_USAGE = `  search <query> [--tab T] [--limit N]
                              the first N results (default 20) of a search of what you follow
                              and own, as JSON; T is a feed tab: ${tabKeys(0, 2)},
                              ${tabKeys(2)}`;

export type SearchArgs = { q: string; tab: FeedTabKey | null; limit: number };

/** `<query words...> [--tab T] [--limit N]`, options anywhere; the words make the query. */
export function parseSearchArgs(args: string[]): SearchArgs {
  const words: string[] = [];
  let tab: FeedTabKey | null = null;
  let limit = 20;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--limit') {
      const text = args[(i += 1)];
      const value = Number(text);
      if (text === undefined || !Number.isInteger(value) || value < 1) {
        throw new CliUsageError(`search: --limit must be a whole number from 1, not "${text}"`);
      }
      limit = value;
    } else if (arg === '--tab') {
      const text = args[(i += 1)];
      const parsed = FeedTabKey.safeParse(text);
      if (!parsed.success) {
        const keys = FEED_TABS.map((t) => t.key).join(', ');
        throw new CliUsageError(`search: --tab must be one of ${keys}, not "${text}"`);
      }
      tab = parsed.data as FeedTabKey;
    } else if (arg.startsWith('--')) {
      throw new CliUsageError(`search: unknown option "${arg}"`);
    } else words.push(arg);
  }
  const q = words.join(' ').trim();
  if (!q) throw new CliUsageError('search needs <query>');
  return { q, tab, limit };
}

export async function search(call: Call, args: string[]) {
  const { q, tab, limit } = parseSearchArgs(args);
  const params = { q, tab };
  let window = await call('search.window', {
    params,
    offset: 0,
    count: Math.min(MAX_SEARCH_PAGE, limit),
  });
  const rows = [...window.rows];
  while (rows.length < Math.min(limit, window.reachable)) {
    const count = Math.min(MAX_SEARCH_PAGE, limit - rows.length);
    window = await call('search.window', { params, offset: rows.length, count });
    if (window.rows.length === 0) break;
    rows.push(...window.rows);
  }
  return {
    q,
    searched_q: window.searched_q,
    corrected_q: window.corrected_q,
    count: window.count,
    count_exact: window.count_exact,
    category_tabs: window.category_tabs,
    results: rows.slice(0, limit).map((r) => ({
      document_id: r.document_id,
      title_label: r.title_label,
      source: r.source,
      unix: r.unix,
      highlights: r.highlights,
    })),
  };
}
