import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * bench/follow-memory: what following a 10 MB feed costs the server in memory (issue 17
 * item 4: within 150 MB of idle).
 *
 * A generated RSS 2.0 feed (FOLLOW_BENCH_BYTES, 10,000,000 bytes by default: about 34,000
 * items, each with a short HTML description, as the probe's) is served locally; a
 * fresh server process (the compiled server, `node dist-server/main.mjs`, as `npm start` runs
 * it, on a new SQLite database, FETCH_ALLOW_PRIVATE=1, DATABASE_URL to measure PostgreSQL) is
 * started, a user signs up and follows the feed through the API (`POST /connect/rss`), and the
 * run is waited for until the source's status says every item is stored. The server's resident
 * memory (RSS, from /proc) is read when idle (after sign-up, settled) and at its peak (the
 * kernel's high-water mark, reset after idle, and sampled every
 * 50 ms). Baseline, from the same run on its own fresh server: following a feed of 50 items
 * (one piece, one transaction), what any follow costs. Goal: peak - idle <= 150 MB.
 */

const BYTES = Number(process.env.FOLLOW_BENCH_BYTES ?? 10_000_000);
const GOAL_MB = 150;
const BASELINE_ITEMS = 50;

const item = (i: number) => {
  const date = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toUTCString();
  const html = `<p>Story ${i}: <b>markets</b> and the yield curve moved.</p>`;
  return (
    `<item><title>Story ${i} on rates</title>` +
    `<link>https://news.example.com/story/${i}</link>` +
    `<guid isPermaLink="false">story-${i}</guid><pubDate>${date}</pubDate>` +
    `<description>${html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</description></item>\n`
  );
};

/** An RSS 2.0 feed of `items` items, or (items = null) of as many as fit in `bytes`. */
const feedOf = (opts: { items: number } | { bytes: number }): { body: Buffer; items: number } => {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Big wire</title>' +
    '<link>https://news.example.com/</link><description>generated</description>\n';
  const tail = '</channel></rss>\n';
  const parts = [head];
  let size = head.length + tail.length;
  let n = 0;
  for (;;) {
    const next = item(n + 1);
    if ('items' in opts ? n >= opts.items : size + next.length > opts.bytes) break;
    parts.push(next);
    size += next.length;
    n++;
  }
  parts.push(tail);
  return { body: Buffer.from(parts.join('')), items: n };
};

const mbOf = (kb: number) => kb / 1024;

/** VmRSS and VmHWM (peak) of a process, in MB. */
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: mbOf(field('VmRSS')), peak: mbOf(field('VmHWM')) };
};

const until = async (what: string, check: () => boolean | Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

type Run = { idle: number; peak: number; ms: number; items: number; followMs: number };

/** A fresh server follows `feedUrl`; answers its memory when idle and at its peak. */
async function followOnFreshServer(feedUrl: string, expected: number): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'follow-memory-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  let child: ChildProcess | null = null;
  try {
    // The server as `npm start` runs it: compiled (npm run build:server, which the script
    // bench:follow-memory runs first).
    child = spawn(process.execPath, ['dist-server/main.mjs'], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        DIST_DIR: join(dataDir, 'no-dist'),
        FETCH_ALLOW_PRIVATE: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const pid = child.pid!;
    await until('the server to start', () => / workspace on /.test(out), 120_000);
    const api = `http://127.0.0.1:${port}/api`;
    const signup = await fetch(`${api}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Memory Bench',
        email: 'memory-bench@example.com',
        password: 'memory-bench-password',
      }),
    });
    if (!signup.ok) throw new Error(`sign-up answered ${signup.status}: ${out}`);
    const { id_token: token } = (await signup.json()) as { id_token: string };
    for (let i = 0; i < 20; i++) await (await fetch(`${api}/health`)).text();
    // Settled: start-up's seeding and first ingestion ticks are over.
    await new Promise((r) => setTimeout(r, 3000));
    const idle = memory(pid).rss;
    // Resets the peak (VmHWM) to the present, so start-up's own peak is not counted.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    let peak = memory(pid).peak;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, memory(pid).rss);
      } catch {
        // the process ended; the failure is reported below
      }
    }, 50);
    const started = performance.now();
    try {
      const res = await fetch(`${api}/connect/rss`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify({ url: feedUrl }),
      });
      const followMs = performance.now() - started;
      const body = (await res.json()) as { source_id?: string; message?: string };
      if (res.status !== 201 && res.status !== 200) {
        throw new Error(`follow answered ${res.status}: ${body.message}`);
      }
      let items = 0;
      await until(
        'the feed to be stored',
        async () => {
          const status = (await (
            await fetch(`${api}/source/status`, { headers: { token } })
          ).json()) as {
            results: Array<{
              source_id: string;
              status: { state: string; items: number; last_error: string | null };
            }>;
          };
          const s = status.results.find((r) => r.source_id === body.source_id)?.status;
          if (s?.last_error) throw new Error(`the feed failed: ${s.last_error}`);
          items = s?.items ?? 0;
          return s?.state === 'ok' && items >= expected;
        },
        600_000,
      );
      const ms = performance.now() - started;
      peak = Math.max(peak, memory(pid).peak);
      return { idle, peak, ms, items, followMs };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) {
      await new Promise((r) => child!.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<boolean> {
  const big = feedOf({ bytes: BYTES });
  const small = feedOf({ items: BASELINE_ITEMS });
  const fixture = createServer((req, res) => {
    const feed = req.url === '/big.xml' ? big : small;
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(feed.body);
  });
  await new Promise<void>((r) => fixture.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
  try {
    const store = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
    console.log(
      `follow memory (${store}): a ${(big.body.length / 1e6).toFixed(1)} MB feed of ${big.items.toLocaleString('en')} items, on a fresh server`,
    );
    const baseline = await followOnFreshServer(`${base}/small.xml`, small.items);
    const run = await followOnFreshServer(`${base}/big.xml`, big.items);
    const grew = run.peak - run.idle;
    const grewBase = baseline.peak - baseline.idle;
    const f = (n: number) => `${n.toFixed(0)} MB`;
    console.log(
      `  ${big.items.toLocaleString('en')} items: follow answered in ${run.followMs.toFixed(0)} ms, ` +
        `${run.items.toLocaleString('en')} stored in ${(run.ms / 1000).toFixed(1)} s`,
    );
    console.log(`  server RSS: idle ${f(run.idle)}, peak ${f(run.peak)}; peak - idle = ${f(grew)}`);
    console.log(
      `  baseline, following ${BASELINE_ITEMS} items: idle ${f(baseline.idle)}, peak ${f(baseline.peak)}; ` +
        `peak - idle = ${f(grewBase)}`,
    );
    console.log(
      `  the 10 MB follow: ${(grew / (big.body.length / 1024 / 1024)).toFixed(1)}x the feed's size, ` +
        `${f(grew - grewBase)} more than the baseline`,
    );
    const ok = grew <= GOAL_MB;
    console.log(`  goal peak - idle <= ${GOAL_MB} MB: ${ok ? 'meets' : 'MISSES'}`);
    return ok;
  } finally {
    fixture.close();
    fixture.closeAllConnections();
  }
}

if (!(await main())) {
  console.error('\nbench/follow-memory: the goal was missed');
  process.exitCode = 1;
}
