import { parseFeed } from '../server/ingest/parse-feed';
import { corpusFeed, measureIngestThroughput } from './ingest-throughput';

const ITEMS = 10_000;

/**
 * Ingestion of a 10k-item RSS feed served locally, read by the real runner into a fresh SQLite
 * database (fetch, parse, sanitise, de-duplicate, store, fan out), with the process's memory
 * before and at its peak. Baseline from the same run: parsing the same feed alone, the floor
 * that storing adds to.
 */
export async function measureIngestion(): Promise<void> {
  const now = Date.now();
  const xml = corpusFeed(ITEMS, now);
  const started = performance.now();
  const parsed = parseFeed(xml, 'https://bench.example.com/feed.xml', now);
  const parseRate = parsed.items.length / ((performance.now() - started) / 1000);
  const run = await measureIngestThroughput({ items: ITEMS });
  console.log(
    `\ningestion of a ${ITEMS.toLocaleString('en')}-item RSS feed (${(run.feedBytes / 1e6).toFixed(1)} MB)`,
  );
  console.log(
    `  stored ${run.inserted.toLocaleString('en')} in ${run.seconds.toFixed(2)} s = ${run.itemsPerSecond.toLocaleString('en')} items/s`,
  );
  console.log(
    `  baseline, parsing alone: ${Math.round(parseRate).toLocaleString('en')} items/s (ingestion runs at ${(run.itemsPerSecond / parseRate).toFixed(2)} of it)`,
  );
  console.log(
    `  server memory (resident): ${run.rssBeforeMb} MB before, ${run.rssPeakMb} MB at its peak`,
  );
}
