import { createAccount } from '../server/auth/accounts';
import { createBenchSources } from './feed-corpus';
import type { Db } from '../server/db/schema';
import { corpusItems, type CorpusSource } from '../server/demo/corpus';
import { insertDocuments } from '../server/content/store';
import type { IncomingDocument } from '../server/documents/incoming';
import { followSource } from '../server/sources/follow';

/**
 * bench/search's corpus: `docs` documents of the demo generator (news by desk, Indian, US and
 * NZ filings, research notes) across 200 public sources, stored through the product's
 * `insertDocuments` (sanitising, de-duplication, fan-out, and the search index built inside the
 * same transaction), in transactions of one slice each. Slices are written oldest first, as
 * ingestion would have met them, so documents' numbers follow their dates. One user follows
 * every other source (100) before anything arrives: their home feed is filled by fan-out.
 * Deterministic: the same count always writes the same documents.
 */

export const SOURCE_COUNT = 200;
/** Documents per slice (one transaction); a multiple of SOURCE_COUNT. */
const SLICE = 10_000;
/** The corpus spans ten years before `now`. */
const SPAN_DAYS = 3650;
const SEED = 7_000;

type BenchSource = CorpusSource & { key: string; label: string };

const NEWS_TOPICS = ['finance', 'economics', 'technology', 'healthcare', 'media', 'law'];

/** 110 news desks, 60 exchange feeds (30 Indian, 20 US, 10 NZ) and 30 research desks, mixed. */
export const benchSources = (): BenchSource[] => {
  const out: BenchSource[] = [];
  for (let i = 0; i < SOURCE_COUNT; i++) {
    const n = String(i).padStart(3, '0');
    const k = i % 20;
    if (k < 11) {
      const topic = NEWS_TOPICS[i % NEWS_TOPICS.length];
      out.push({
        id: `sb-news-${n}`,
        key: `sb_news_${n}`,
        label: `Search Bench ${topic} desk ${n}`,
        category_tab: 'rss_news',
        market: null,
        topic,
      });
    } else if (k < 17) {
      const market =
        k < 14 ? 'india_capital_markets' : k < 16 ? 'us_capital_markets' : 'nz_capital_markets';
      out.push({
        id: `sb-exch-${n}`,
        key: `sb_exchange_${n}`,
        label: `Search Bench filings ${n}`,
        category_tab: 'exchanges',
        market,
      });
    } else {
      out.push({
        id: `sb-research-${n}`,
        key: `sb_research_${n}`,
        label: `Search Bench research ${n}`,
        category_tab: 'research',
        market: null,
      });
    }
  }
  return out;
};

export type BenchCorpus = {
  userId: string;
  /** The sources the user follows (their home feed). */
  followed: string[];
  sources: BenchSource[];
};

/** The sources (public, built in), the bench user and their follows; no documents yet. */
export async function prepareCorpus(db: Db, now: number): Promise<BenchCorpus> {
  const sources = benchSources();
  return db.transaction().execute(async (trx) => {
    await createBenchSources(trx, now, sources);
    const user = await createAccount(
      trx,
      { name: 'Search Bench', email: 'search-bench@example.com', passwordHash: 'unusable' },
      now,
    );
    const followed = sources.filter((_, i) => i % 2 === 0).map((s) => s.id);
    for (const id of followed) await followSource(trx, user.id, id, now);
    return { userId: user.id, followed, sources };
  });
}

export type BuildProgress = { done: number; total: number; seconds: number };

/**
 * Writes `docs` documents, oldest slice first, each slice in one transaction (its documents
 * grouped per source, one insertDocuments call each). Answers the seconds spent storing (the
 * generator's own time excluded) and the wall time.
 */
export async function fillCorpus(
  db: Db,
  corpus: BenchCorpus,
  opts: { docs: number; now: number; onProgress?: (p: BuildProgress) => void },
): Promise<{ storeSeconds: number; wallSeconds: number; inserted: number }> {
  const slices = Math.max(1, Math.ceil(opts.docs / SLICE));
  const sliceMs = (SPAN_DAYS * 86_400_000) / slices;
  const started = performance.now();
  let storing = 0;
  let inserted = 0;
  let done = 0;
  for (let k = slices - 1; k >= 0; k--) {
    const count = Math.min(SLICE, opts.docs - done);
    // Slice k ends k slices before now; slice 0 is the newest.
    const bySource = new Map<string, IncomingDocument[]>();
    for (const { sourceId, item } of corpusItems({
      seed: SEED + k,
      count,
      now: opts.now - k * sliceMs,
      sources: corpus.sources,
      spanDays: sliceMs / 86_400_000,
    })) {
      const list = bySource.get(sourceId);
      if (list) list.push(item);
      else bySource.set(sourceId, [item]);
    }
    const at = performance.now();
    await db.transaction().execute(async (trx) => {
      for (const [sourceId, items] of bySource) {
        inserted += (await insertDocuments(trx, sourceId, items, { now: opts.now })).inserted;
      }
    });
    storing += performance.now() - at;
    done += count;
    opts.onProgress?.({ done, total: opts.docs, seconds: (performance.now() - started) / 1000 });
  }
  return {
    storeSeconds: storing / 1000,
    wallSeconds: (performance.now() - started) / 1000,
    inserted,
  };
}
