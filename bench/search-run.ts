import { HOME_BOARD } from '../contract/boards';
import { DEFAULT_PRODUCT } from '../contract/constants';
import { webSearchType } from '../contract/search';
import type { DialectName, Db } from '../server/db/schema';
import { migrateToLatest } from '../server/db/migrate';
import { engineFor } from '../server/search/engines';
import { searchScope } from '../server/search/scope';
import { fillCorpus, prepareCorpus } from './search-corpus';
import { searchWith, timeTerms, type Stats } from './search-queries';
import { naiveQueries } from './search-naive';
import { mb, postgresSize, sqliteSize, type DiskSize } from './search-size';
import {
  describeTerms,
  pickTerms,
  sampleVocabulary,
  withFrequency,
  type Term,
} from './search-terms';

/**
 * One back end of bench/search: builds the corpus through the product's ingestion path, prints
 * the build throughput and the size on disk, then times the issue's three queries through the
 * engine interface (and the naive feed-filtered baseline in SQL), printing each figure as it
 * goes. Answers the figures for the summary.
 */

type TermChoice = { rare: Term[]; feed: Term[]; common: Term[] };

export type Figures = {
  label: string;
  /** Documents per second through the engine's index() alone. */
  indexRate: number;
  /** The words queried, for the next back end. */
  terms: { rare: string[]; feed: string[]; common: string[] };
  docs: number;
  buildRate: number;
  size: DiskSize;
  /** (a) ranked, rare terms: over the public corpus, and over My Data (the default scope). */
  rare: Stats;
  rareMine: Stats;
  /** (b) the home feed, newest first, common terms; the naive query beside. */
  feed: Stats;
  /** The faster of the naive queries (search-naive.ts), by median. */
  naive: Stats;
  /** Of the common terms, how many got the same 20 documents as the naive query. */
  sameAsNaive: string;
  /** (c) ranked, terms in more than half the documents. */
  common: Stats;
  commonMine: Stats;
};

const RARE_TERMS = 15;
const FEED_TERMS = 8;
const COMMON_TERMS = 6;
const SAMPLES = 40;
const NAIVE_SAMPLES = 8;

const f1 = (n: number) => n.toFixed(1);
const int = (n: number) => Math.round(n).toLocaleString('en');
const pp = (s: Stats) =>
  `p50 ${f1(s.p50)} ms, p95 ${f1(s.p95)} ms over ${s.samples} runs (max ${f1(s.max)})`;
const timed = (t: { stats: Stats; slowest: string }) => `${pp(t.stats)}; slowest: ${t.slowest}`;

export async function runBackend(opts: {
  label: string;
  db: Db;
  dialect: DialectName;
  docs: number;
  now: number;
  /** The SQLite file, for its size on disk. */
  file?: string;
  /** Query these words (another back end's choice) instead of choosing. */
  terms?: { rare: string[]; feed: string[]; common: string[] };
}): Promise<Figures> {
  const { db, docs, now } = opts;
  console.log(`\n${opts.label}: ${int(docs)} documents`);
  await migrateToLatest(db);
  const corpus = await prepareCorpus(db, now);
  let shown = 0;
  // The engine's own share of the build: its index() calls, timed by wrapping the method of
  // the engine singleton for the build's duration (put back after).
  const engine = engineFor(db);
  const index = engine.index;
  let indexing = 0;
  engine.index = async (...args) => {
    const at = performance.now();
    try {
      return await index.apply(engine, args);
    } finally {
      indexing += performance.now() - at;
    }
  };
  const build = await fillCorpus(db, corpus, {
    docs,
    now,
    onProgress: (p) => {
      if (p.done / p.total >= shown + 0.2 || p.done === p.total) {
        shown = Math.floor((p.done / p.total) * 5) / 5;
        console.log(`  ... ${int(p.done)} stored, ${int(p.seconds)} s`);
      }
    },
  }).finally(() => {
    engine.index = index;
  });
  const buildRate = build.inserted / build.storeSeconds;
  console.log(
    `  index build: ${int(build.inserted)} documents in ${f1(build.storeSeconds)} s = ${int(buildRate)} documents/s` +
      ` (insertDocuments in transactions of 10,000: sanitise, de-duplicate, fan-out to the home feed,` +
      ` search index and passages; ${f1(build.wallSeconds)} s with the generator)`,
  );
  console.log(
    `    of which the engine's index() (documents, passages, vocabulary): ${f1(indexing / 1000)} s` +
      ` = ${f1((100 * indexing) / 1000 / build.storeSeconds)}%, ${int(build.inserted / (indexing / 1000))} documents/s alone`,
  );
  const size = opts.file ? sqliteSize(opts.file) : await postgresSize(db);
  console.log(
    `  size on disk: ${mb(size.bytes)} (${size.note}); search index ${mb(size.searchBytes)}` +
      ` = ${f1((100 * size.searchBytes) / size.bytes)}%; documents table ${mb(size.documentsBytes)}`,
  );
  console.log(
    `    index parts: ${size.searchParts
      .slice(0, 6)
      .map(([n, b]) => `${n} ${mb(b)}`)
      .join(', ')}`,
  );

  const frequencies = async (list: string[]) => {
    return withFrequency(list, await engine.termDocs(db, [...new Set(list)]));
  };
  let choice: TermChoice;
  if (opts.terms) {
    const given = opts.terms;
    const [rare, feed, common] = await Promise.all([
      frequencies(given.rare),
      frequencies(given.feed),
      frequencies(given.common),
    ]);
    choice = { rare, feed, common };
    console.log(`  (the terms of the first run, with their frequency in this corpus)`);
  } else {
    const terms = await frequencies(sampleVocabulary(now).words);
    choice = {
      rare: pickTerms(terms, docs * 0.001, docs * 0.01, RARE_TERMS),
      feed: pickTerms(terms, docs * 0.1, docs, FEED_TERMS),
      common: pickTerms(terms, docs * 0.5, Infinity, COMMON_TERMS),
    };
  }
  const { rare: rareTerms, feed: feedTerms, common: commonTerms } = choice;
  const viewer = { userId: corpus.userId, product: DEFAULT_PRODUCT };
  const mine = await searchScope(db, viewer, {});
  const web = await searchScope(db, viewer, { search_type: webSearchType(DEFAULT_PRODUCT) });
  const home = await searchScope(db, viewer, { board_id: HOME_BOARD });
  const showTerms = (list: Term[]) => {
    for (const line of describeTerms(list, docs)) console.log(`      ${line}`);
  };
  const words = (list: Term[]) => {
    if (!list.length) throw new Error(`${opts.label}: no terms in a frequency band`);
    return list.map((t) => t.word);
  };

  // (a) Ranked top 20, terms in at most 1% of the documents.
  console.log(`  (a) ranked top 20, ${rareTerms.length} terms in <= 1% of documents:`);
  showTerms(rareTerms);
  const rare = await timeTerms(words(rareTerms), SAMPLES, searchWith(engine, db, web, 'relevance'));
  const rareMine = await timeTerms(
    words(rareTerms),
    SAMPLES,
    searchWith(engine, db, mine, 'relevance'),
  );
  console.log(`      public corpus (${webSearchType(DEFAULT_PRODUCT)}): ${timed(rare)}`);
  console.log(`      My Data (the default scope): ${timed(rareMine)}`);

  // (b) The home feed, newest first, a common term; the naive query beside.
  console.log(
    `  (b) the home feed (${corpus.followed.length} sources) newest first, top 20, common terms:`,
  );
  showTerms(feedTerms);
  const feed = await timeTerms(words(feedTerms), SAMPLES, searchWith(engine, db, home, 'latest'));
  const naive = await naiveQueries(db, opts.dialect, corpus.followed);
  const keyed = naive.keyed ? await timeTerms(words(feedTerms), NAIVE_SAMPLES, naive.keyed) : null;
  // Seconds a query on a million documents: one run per term, no warm-up round.
  const literal = await timeTerms(words(feedTerms), feedTerms.length, naive.literal, {
    warm: false,
  });
  let same = 0;
  for (const w of words(feedTerms)) {
    const ours = (feed.answers.get(w)?.hits ?? []).map((h) => h.id).join();
    const theirs = [literal, ...(keyed ? [keyed] : [])].map((t) => t.answers.get(w)!.join());
    if (theirs.every((t) => t === ours)) same++;
  }
  const sameAsNaive = `${same}/${feedTerms.length}`;
  const baseline = keyed && keyed.stats.p50 < literal.stats.p50 ? keyed.stats : literal.stats;
  console.log(`      engine: ${timed(feed)}`);
  console.log(
    `      baseline, the naive query as the issue writes it (${naive.describe.literal}):`,
  );
  console.log(`        ${timed(literal)}`);
  if (keyed) {
    console.log(
      `      baseline, the same on the index's rowid-keyed table (${naive.describe.keyed}):`,
    );
    console.log(`        ${timed(keyed)}`);
  }
  console.log(
    `      ratio faster baseline / engine: ${f1(baseline.p50 / feed.stats.p50)}x at p50, ` +
      `${f1(baseline.p95 / feed.stats.p95)}x at p95; the engine's 20 documents are the ` +
      `naive queries' for ${sameAsNaive} terms`,
  );

  // (c) Ranked top 20, terms in more than half of the documents.
  console.log(`  (c) ranked top 20, ${commonTerms.length} terms in > 50% of documents:`);
  showTerms(commonTerms);
  const common = await timeTerms(
    words(commonTerms),
    SAMPLES,
    searchWith(engine, db, web, 'relevance'),
  );
  const commonMine = await timeTerms(
    words(commonTerms),
    SAMPLES,
    searchWith(engine, db, mine, 'relevance'),
  );
  const estimated = [...common.answers.values()].filter((a) => !a.exact).length;
  console.log(`      public corpus: ${timed(common)}`);
  console.log(`      My Data: ${timed(commonMine)}`);
  console.log(
    `      counts: ${estimated}/${commonTerms.length} answered as estimates (exact: false)`,
  );

  return {
    label: opts.label,
    indexRate: build.inserted / (indexing / 1000),
    terms: { rare: words(rareTerms), feed: words(feedTerms), common: words(commonTerms) },
    docs,
    buildRate,
    size,
    rare: rare.stats,
    rareMine: rareMine.stats,
    feed: feed.stats,
    naive: baseline,
    sameAsNaive,
    common: common.stats,
    commonMine: commonMine.stats,
  };
}
