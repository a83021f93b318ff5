import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../server/auth/accounts';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { corpusItems } from '../server/demo/corpus';
import { followSource } from '../server/sources/follow';
import { iso } from '../server/time';
import { createIngestRunner } from '../server/content/runner';

/**
 * Ingestion throughput, for bench/feed: a real RSS feed of `items` items (the demo corpus's
 * news, rendered as RSS 2.0) served from a local HTTP server, followed by one user, read by the
 * real runner into a fresh database: fetch, parse, sanitise, store, fan out. Answers items per
 * second and the process's memory (resident set) before and at its peak while it ran.
 */
export type IngestThroughput = {
  items: number;
  inserted: number;
  feedBytes: number;
  seconds: number;
  itemsPerSecond: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** The longest the event loop was held at once (parsing, a batch's transaction): how long
   * an API request could wait behind ingestion on this process. */
  maxEventLoopBlockMs: number;
};

export type ThroughputOptions = {
  /** Items in the feed (default 10,000). */
  items?: number;
  /** Documents per transaction (the runner's default unless set). */
  batchSize?: number;
  /** In-memory PGlite instead of SQLite in a temporary directory. */
  pglite?: boolean;
};

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The corpus's news as one RSS 2.0 document. */
export const corpusFeed = (items: number, now: number): string => {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>',
    '<title>Bench wire</title><link>https://bench.example.com/</link><description>bench</description>',
  ];
  const sources = [{ id: 'bench', category_tab: 'rss_news' as const, market: null }];
  let i = 0;
  for (const { item } of corpusItems({ seed: 6, count: items, now, sources })) {
    i++;
    parts.push(
      `<item><title>${escapeXml(item.title ?? '')}</title>` +
        `<link>https://bench.example.com/story/${i}</link><guid>bench-${i}</guid>` +
        `<pubDate>${new Date((item.unix ?? 0) * 1000).toUTCString()}</pubDate>` +
        `<description>${escapeXml(item.html ?? '')}</description></item>`,
    );
  }
  parts.push('</channel></rss>');
  return parts.join('');
};

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function measureIngestThroughput(
  opts: ThroughputOptions = {},
): Promise<IngestThroughput> {
  const items = opts.items ?? 10_000;
  const now = Date.now();
  const body = Buffer.from(corpusFeed(items, now));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`;
  const dataDir = opts.pglite ? undefined : mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  const { db, dialect } = await openDatabase({ dataDir, pglite: opts.pglite });
  try {
    await migrateToLatest(db);
    await db.transaction().execute(async (trx) => {
      const user = await createAccount(
        trx,
        { name: 'Bench', email: 'bench@example.com', passwordHash: 'unusable' },
        now,
      );
      await trx
        .insertInto('sources')
        .values({
          id: 'bench-feed',
          key: 'rss_bench-feed',
          kind: 'rss',
          label: 'Bench wire',
          url,
          site_url: 'https://bench.example.com/',
          category: 'rss_news',
          category_tab: 'rss_news',
          market: null,
          grp: null,
          thumbnail: null,
          flag: 'rss_news',
          public: 0,
          owner_user_id: user.id,
          created_at: iso(now),
        })
        .execute();
      await followSource(trx, user.id, 'bench-feed', now);
    });
    const runner = createIngestRunner({
      db,
      dialect,
      now: Date.now,
      log: () => {},
      concurrency: 1,
      batchSize: opts.batchSize,
      fetch: { allowPrivate: true },
    });
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    // The gap between ticks of a 10 ms timer, less its period, is how long the loop was held.
    let maxBlock = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const at = performance.now();
      maxBlock = Math.max(maxBlock, at - last - 10);
      last = at;
    }, 10);
    const started = performance.now();
    await runner.runDue();
    const seconds = (performance.now() - started) / 1000;
    // One more tick, so a hold that lasted to the end is counted too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    clearInterval(ticker);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    const job = await db
      .selectFrom('ingest_jobs')
      .select(['last_error'])
      .where('source_id', '=', 'bench-feed')
      .executeTakeFirstOrThrow();
    if (job.last_error) throw new Error(`the bench feed failed: ${job.last_error}`);
    const { n } = await db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('source_id', '=', 'bench-feed')
      .executeTakeFirstOrThrow();
    return {
      items,
      inserted: Number(n),
      feedBytes: body.length,
      seconds: Math.round(seconds * 1000) / 1000,
      itemsPerSecond: Math.round(items / seconds),
      rssBeforeMb: mb(rssBefore),
      rssPeakMb: mb(rssPeak),
      maxEventLoopBlockMs: Math.round(maxBlock),
    };
  } finally {
    await db.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
