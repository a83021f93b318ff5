import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema';
import { corpusItems, type CorpusSource } from '../server/demo/corpus';
import { insertDocuments } from '../server/content/store';
import type { IncomingDocument } from '../server/documents/incoming';
import { followSource } from '../server/sources/follow';
import { iso } from '../server/time';

/**
 * The benchmark's feed: four built-in sources (news, US and Indian filings, research) that one
 * user follows, filled from the demo corpus generator through the same `insertDocuments` the
 * ingestion runner uses (sanitising, de-duplication, fan-out to the follower's home feed).
 */

const BENCH_SOURCES: ReadonlyArray<CorpusSource & { key: string; label: string }> = [
  {
    id: 'bench-news',
    key: 'bench_news',
    label: 'Bench Wire',
    category_tab: 'rss_news',
    market: null,
  },
  {
    id: 'bench-us',
    key: 'bench_us_filings',
    label: 'Bench US Filings',
    category_tab: 'exchanges',
    market: 'us_capital_markets',
  },
  {
    id: 'bench-in',
    key: 'bench_india_filings',
    label: 'Bench India Filings',
    category_tab: 'exchanges',
    market: 'india_capital_markets',
  },
  {
    id: 'bench-research',
    key: 'bench_research',
    label: 'Bench Research',
    category_tab: 'research',
    market: null,
  },
];

/** Makes the (public, built-in) sources: the feed bench's four, or the ones given. */
export async function createBenchSources(
  db: Kysely<Database>,
  now: number,
  sources: ReadonlyArray<CorpusSource & { key: string; label: string }> = BENCH_SOURCES,
) {
  for (const s of sources) {
    await db
      .insertInto('sources')
      .values({
        id: s.id,
        key: s.key,
        kind: 'builtin',
        label: s.label,
        url: null,
        site_url: null,
        category: s.category_tab === 'exchanges' ? 'exchanges_groups' : 'rss_news',
        category_tab: s.category_tab,
        market: s.market,
        grp: null,
        thumbnail: null,
        flag: s.category_tab === 'exchanges' ? 'exchanges' : 'rss_news',
        public: 1,
        owner_user_id: null,
        created_at: iso(now),
      })
      .execute();
  }
}

/** `userId` follows every bench source: its home feed gets their documents, now and later. */
export async function followBenchSources(db: Kysely<Database>, userId: string, now: number) {
  for (const s of BENCH_SOURCES) {
    await db.transaction().execute((trx) => followSource(trx, userId, s.id, now));
  }
}

/**
 * Inserts documents `from` to `to` of the corpus (seeded, so a later call continues where an
 * earlier one stopped), in transactions of `batch`; answers the documents per second.
 */
export async function fillBenchFeed(
  db: Kysely<Database>,
  range: { from: number; to: number; now: number; batch?: number; short?: boolean },
): Promise<number> {
  const batch = range.batch ?? 2000;
  const started = performance.now();
  let pending = new Map<string, IncomingDocument[]>();
  let held = 0;
  const flush = async () => {
    const work = pending;
    pending = new Map();
    held = 0;
    await db.transaction().execute(async (trx) => {
      for (const [sourceId, items] of work) {
        await insertDocuments(trx, sourceId, items, { now: range.now });
      }
    });
  };
  let i = 0;
  for (const { sourceId, item } of corpusItems({
    seed: 11,
    count: range.to,
    now: range.now,
    sources: BENCH_SOURCES,
    spanDays: 3650,
  })) {
    if (i++ < range.from) continue;
    const doc = range.short ? { ...item, html: null, text: item.title } : item;
    const list = pending.get(sourceId) ?? [];
    list.push(doc);
    pending.set(sourceId, list);
    if (++held >= batch) await flush();
  }
  if (held > 0) await flush();
  return ((range.to - range.from) / (performance.now() - started)) * 1000;
}
