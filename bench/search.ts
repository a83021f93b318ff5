import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/database';
import { startPostgres } from './search-postgres';
import { runBackend, type Figures } from './search-run';
import { mb } from './search-size';

/**
 * bench/search: the search engine on a generated corpus of 1M documents (issue 7).
 *
 * The corpus (search-corpus.ts): the demo generator's finance news, filings and research notes
 * across 200 public sources, one user following 100 of them, stored through the product's
 * insertDocuments (so the search index and passages are built as ingestion builds them) into a
 * fresh SQLite database in a temporary directory. Printed: index build throughput (documents/s)
 * and size on disk with the search index's share. Then, through the engine interface with the
 * scopes search/scope.ts builds, top 20 of:
 *   (a) ranked (relevance) for terms in <= 1% of the documents: p95 <= 20 ms;
 *   (b) the user's home feed newest first for common terms (>= 10% of documents): p95 <= 20 ms
 *       and >= 15x faster (median against median) than the naive query run beside it,
 *       `seq IN (MATCH) AND source_id IN (followed) ORDER BY unix DESC LIMIT 20`, as written
 *       on `documents` and on the index's rowid-keyed table, whichever is faster
 *       (search-naive.ts says why both);
 *   (c) ranked for terms in more than half of the documents: p95 <= 50 ms.
 * Terms are chosen by their document frequency in the built index (termDocs), printed beside.
 * Then the same on a throwaway PostgreSQL server (search-postgres.ts) when one is installed,
 * printed beside; its figures are shown against the goals but only SQLite's (the default
 * engine) decide the exit code. Nothing is cached between runs.
 *
 * SEARCH_BENCH_DOCS sets the corpus size (default 1,000,000); SEARCH_BENCH_PG_DOCS
 * PostgreSQL's (default: the same corpus); SEARCH_BENCH_PG=0 skips it.
 */

const count = (name: string, fallback: number) => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 10_000) {
    throw new Error(`${name} must be a whole number of at least 10000, got "${v}"`);
  }
  return n;
};

const DOCS = count('SEARCH_BENCH_DOCS', 1_000_000);
/** PostgreSQL builds at about half SQLite's rate here: a quarter of the corpus by default. */
const PG_DOCS = count('SEARCH_BENCH_PG_DOCS', DOCS);

type Goal = { what: string; ok: (f: Figures) => boolean; value: (f: Figures) => string };

const f1 = (n: number) => n.toFixed(1);
const GOALS: Goal[] = [
  {
    what: '(a) ranked, terms <= 1%: p95 <= 20 ms',
    ok: (f) => f.rare.p95 <= 20 && f.rareMine.p95 <= 20,
    value: (f) => `${f1(f.rare.p95)} / ${f1(f.rareMine.p95)} ms`,
  },
  {
    what: '(b) home feed newest first: p95 <= 20 ms',
    ok: (f) => f.feed.p95 <= 20,
    value: (f) => `${f1(f.feed.p95)} ms`,
  },
  {
    what: '(b) ... >= 15x the faster naive query (p50)',
    ok: (f) => f.naive.p50 / f.feed.p50 >= 15,
    value: (f) => `${f1(f.naive.p50 / f.feed.p50)}x (${f1(f.naive.p50)} ms)`,
  },
  {
    what: '(c) ranked, terms > 50%: p95 <= 50 ms',
    ok: (f) => f.common.p95 <= 50 && f.commonMine.p95 <= 50,
    value: (f) => `${f1(f.common.p95)} / ${f1(f.commonMine.p95)} ms`,
  },
];

const INFO: Array<{ what: string; value: (f: Figures) => string }> = [
  { what: 'documents', value: (f) => f.docs.toLocaleString('en') },
  {
    what: 'build, stored (documents/s)',
    value: (f) => Math.round(f.buildRate).toLocaleString('en'),
  },
  {
    what: "  the engine's index() alone (documents/s)",
    value: (f) => Math.round(f.indexRate).toLocaleString('en'),
  },
  { what: 'size on disk', value: (f) => mb(f.size.bytes) },
  { what: '  of which the search index', value: (f) => mb(f.size.searchBytes) },
  { what: '(b) same 20 as the naive query', value: (f) => f.sameAsNaive },
];

function summary(sqlite: Figures, pg: Figures | string): boolean {
  const pad = (s: string, n: number) => s.padEnd(n);
  console.log('\nsummary (a and c: public corpus / My Data)');
  console.log(`  ${pad('', 48)}${pad('SQLite', 26)}PostgreSQL`);
  for (const row of INFO) {
    const other = typeof pg === 'string' ? '' : row.value(pg);
    console.log(`  ${pad(row.what, 48)}${pad(row.value(sqlite), 26)}${other}`);
  }
  let ok = true;
  for (const g of GOALS) {
    const mine = `${g.value(sqlite)} ${g.ok(sqlite) ? 'meets' : 'MISSES'}`;
    const other = typeof pg === 'string' ? '' : `${g.value(pg)} ${g.ok(pg) ? 'meets' : 'misses'}`;
    console.log(`  ${pad(g.what, 48)}${pad(mine, 26)}${other}`);
    if (!g.ok(sqlite)) ok = false;
  }
  if (typeof pg === 'string') console.log(`  PostgreSQL: ${pg}`);
  else
    console.log('  (PostgreSQL figures are printed beside; SQLite, the default engine, decides.)');
  return ok;
}

async function main() {
  const now = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'search-bench-'));
  let sqlite: Figures;
  try {
    const { db, location } = await openDatabase({ dataDir });
    try {
      sqlite = await runBackend({
        label: 'SQLite',
        db,
        dialect: 'sqlite',
        docs: DOCS,
        now,
        file: location,
      });
    } finally {
      await db.destroy();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  let pg: Figures | string;
  if (process.env.SEARCH_BENCH_PG === '0') pg = 'skipped (SEARCH_BENCH_PG=0)';
  else {
    const server = await startPostgres();
    if ('skipped' in server) {
      pg = `skipped: ${server.skipped}`;
      console.log(`\nPostgreSQL: ${pg}`);
    } else {
      try {
        console.log(`\n${server.version}, a throwaway server on ${new URL(server.url).host}`);
        const { db } = await openDatabase({ databaseUrl: server.url });
        try {
          pg = await runBackend({
            label: 'PostgreSQL',
            db,
            dialect: 'postgres',
            docs: PG_DOCS,
            terms: sqlite.terms,
            now,
          });
        } finally {
          await db.destroy();
        }
      } finally {
        server.stop();
      }
    }
  }
  if (!summary(sqlite, pg)) {
    console.error('\nbench/search: a goal was missed');
    process.exitCode = 1;
  }
}

await main();
