import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import { addDocs, follow, news, newUser } from './documents-helpers';
import {
  createHarness,
  freshPostgresDatabase,
  REAL_POSTGRES_URL,
  STORAGES,
  type Harness,
} from './harness';

/**
 * Issue 17 item 1: one search must not freeze the server. "a " 2,500 times took 10 s on SQLite
 * (FTS5 ranked a match by 2,500 copies of one phrase) while every other request waited. A
 * query reads its words once each and at most 32 of them (server/search/query.ts), and a
 * search on SQLite takes turns with other requests statement by statement (yielding.ts).
 */

const HOSTILE = 'a '.repeat(2500).trim();
/** kw1 ... kw40: words no stemmer changes, each in the one document below. */
const kw = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `kw${from + i}`).join(' ');

describe.each(STORAGES)('a query of many words on %s', (storage) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await addDocs(h, 'demo_research', [
      news('many', 'Forty words', `The words are ${kw(1, 40)}, once each.`, 1),
      news('other', 'Another note', 'Nothing of the numbered words here.', 2),
    ]);
    ({ token } = await newUser(h));
    await follow(h, token, 'demo_research');
  });
  afterAll(async () => {
    await h?.close();
  });

  const search = (q: string, extra: object = {}, path = '/search') =>
    h.call('POST', path, { token, body: { q, num_docs: 20, ...extra } });
  const marked = (res: { body: { results: Array<{ highlight_indexes: unknown[] }> } }) =>
    res.body.results[0].highlight_indexes.length;

  it('reads the first 32 words and leaves the rest out', async () => {
    // The 33rd word is no document's: read, it would leave no result.
    const past = await search(`${kw(1, 32)} nosuchword`);
    expect(past.status).toBe(200);
    expect(past.body.results.map((r: { title_label: string }) => r.title_label)).toEqual([
      'Forty words',
    ]);
    // What was searched is what is marked: kw1 ... kw32, not kw33.
    expect(marked(await search(kw(1, 33)))).toBe(32);
    // A phrase's words count one by one: its first 32 words are the phrase searched.
    const phrase = await search(`"${kw(1, 32)} kw99"`);
    expect(phrase.body.results.map((r: { title_label: string }) => r.title_label)).toEqual([
      'Forty words',
    ]);
  });

  it('reads a repeated word once, so words after the repeats still count', async () => {
    const repeated = await search(`${'kw1 '.repeat(1200)}kw40`);
    expect(repeated.status).toBe(200);
    expect(repeated.body.count).toBe(1);
    expect(marked(repeated)).toBe(2);
    // Were the repeats counted, the absent word after them would be left out.
    const absent = await search(`${'kw1 '.repeat(1200)}nosuchword`);
    expect(absent.status).toBe(200);
    expect(absent.body.count).toBe(0);
  });

  it('answers the hostile query on every search call', async () => {
    const calls: Array<[string, object]> = [
      ['/search', { search_type: 'needl_web', type: 'category', num_docs: 20 }],
      ['/search', { spell_correct: true, sort: 'latest', num_docs: 20 }],
      ['/search/demo_research', { num_docs: 20 }],
      ['/search/tags', { search_type: 'needl_web' }],
      ['/search/exchanges', {}],
    ];
    for (const [path, body] of calls) {
      const res = await h.call('POST', path, { token, body: { q: HOSTILE, ...body } });
      expect(res.status, path).toBe(200);
    }
    const words = await search(HOSTILE);
    expect(words.body.query_params.searched_q).toBe(HOSTILE);
  });
});

describe('a search on SQLite', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    await addDocs(h, 'demo_research', [
      news('r', 'Rate cycle outlook', 'We expect the repo rate to fall as inflation eases.', 1),
    ]);
    ({ token } = await newUser(h));
    await follow(h, token, 'demo_research');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lets other work run between its statements', async () => {
    // better-sqlite3 answers at once, so a chain of statements never gave the event loop a
    // turn: the ticker below ran 0 times during a search. Now it runs between statements.
    // The second asks for spelling too: a few more statements (inflaton: inflation).
    for (const [q, spell_correct] of [
      ['repo rate', false],
      ['repo rate inflaton', true],
    ] as const) {
      let ticks = 0;
      let ticking = true;
      const tick = () => {
        if (!ticking) return;
        ticks++;
        setImmediate(tick);
      };
      setImmediate(tick);
      const res = await h.call('POST', '/search', {
        token,
        body: { q, spell_correct },
      });
      ticking = false;
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { title_label: string }) => r.title_label)).toEqual([
        'Rate cycle outlook',
      ]);
      expect(ticks).toBeGreaterThan(0);
    }
  });
});

/**
 * The measure, over real HTTP on the demo workspace: while 4 of the hostile searches
 * run, /api/health answers with p99 <= 100 ms (or, on a machine too busy for that with any
 * search, no worse than three times its p99 beside the one word "a") and each search within
 * 2 s. SQLite (the default
 * server, whose driver runs on the event loop) and a real PostgreSQL when one is given; PGlite
 * is left out: a test stand-in running PostgreSQL in WebAssembly in this very thread, every
 * statement of it on the event loop whatever the query.
 */
const SERVERS = REAL_POSTGRES_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(SERVERS)('four hostile searches at once on %s', (kind) => {
  let server: RunningServer;
  let dataDir: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let token: string;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (kind === 'postgres')
      ({ url: databaseUrl, drop } = await freshPostgresDatabase(REAL_POSTGRES_URL!));
    else dataDir = mkdtempSync(join(tmpdir(), 'search-hostile-'));
    server = await startServer({ port: 0, dataDir, databaseUrl, ingest: false, log: () => {} });
    const res = await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@needl.ai', password: 'demo-password' }),
    });
    token = ((await res.json()) as { id_token: string }).id_token;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const searchFor = async (q: string) => {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify({ q, search_type: 'needl_web', type: 'category' }),
    });
    const body = (await res.json()) as { count: number };
    return { status: res.status, count: body.count, ms: performance.now() - started };
  };

  /**
   * Four clients, each searching again as soon as its answer comes (four always in flight),
   * `each` times (one taking over 2 s stops its client: the unbounded search took 10 s a time),
   * and /api/health asked one after another for as long as they run: how long each took.
   */
  const whileSearching = async (q: string, each: number) => {
    const searches: Array<Awaited<ReturnType<typeof searchFor>>> = [];
    const client = async () => {
      for (let i = 0; i < each; i++) {
        const s = await searchFor(q);
        searches.push(s);
        if (s.ms > 2000) return;
      }
    };
    let searching = true;
    const clients = Promise.all([client(), client(), client(), client()]).finally(
      () => (searching = false),
    );
    const health: number[] = [];
    while (searching) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/health`);
      await res.text();
      expect(res.status).toBe(200);
      health.push(performance.now() - started);
    }
    await clients;
    return { searches, health };
  };
  const p99 = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
  };

  it('keeps answering /api/health while they run, and answers each within 2 s', async () => {
    // Once alone first: the demo workspace holds documents with "a", so this is a real search.
    const alone = await searchFor(HOSTILE);
    expect(alone.status).toBe(200);
    expect(alone.count).toBeGreaterThan(0);
    expect((await searchFor('a')).count).toBe(alone.count);

    // 100 hostile searches, four at a time, in blocks alternating with as many of the one word
    // "a" (what the 2,500 words mean), so that both meet the machine's load alike.
    const hostile = {
      searches: [] as Array<{ status: number; count: number; ms: number }>,
      health: [] as number[],
    };
    const oneWord: number[] = [];
    for (let block = 0; block < 5; block++) {
      const h = await whileSearching(HOSTILE, 5);
      hostile.searches.push(...h.searches);
      hostile.health.push(...h.health);
      oneWord.push(...(await whileSearching('a', 5)).health);
      if (hostile.searches.some((s) => s.ms > 2000)) break;
    }
    expect(hostile.searches.filter((s) => s.status !== 200 || s.count !== alone.count)).toEqual([]);
    expect(Math.max(...hostile.searches.map((s) => s.ms))).toBeLessThanOrEqual(2000);
    expect(hostile.searches).toHaveLength(100);
    // The 100 ms; on a machine too busy for that even while four searches of the one
    // word run (the 2,500 words' own cost gone), no more than three times theirs. Unbounded,
    // the hostile p99 was over 10 s.
    expect(p99(hostile.health)).toBeLessThanOrEqual(Math.max(100, 3 * p99(oneWord)));
  }, 120_000);
});
