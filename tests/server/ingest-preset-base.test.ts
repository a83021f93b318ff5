import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { createIngestRunner } from '../../server/content/runner';
import { follow, newUser } from './documents-helpers';
import { fixture, startFixtureServer, type FixtureServer } from './ingest-fixture-server';
import { createHarness, type Harness } from './harness';

/**
 * PRESET_BASE_URL: a filings preset with key K is read from `${PRESET_BASE_URL}/K` instead of
 * its public feed (recorded responses for tests and offline demos), by the preset's own parser.
 */

describe('PRESET_BASE_URL', () => {
  it('is read as an http(s) base without its trailing slash; anything else is refused', () => {
    expect(readConfig({}).ingest.presetBaseUrl).toBeUndefined();
    expect(readConfig({ PRESET_BASE_URL: 'http://127.0.0.1:4391/' }).ingest.presetBaseUrl).toBe(
      'http://127.0.0.1:4391',
    );
    expect(
      readConfig({ PRESET_BASE_URL: 'https://fixtures.example.com/filings' }).ingest.presetBaseUrl,
    ).toBe('https://fixtures.example.com/filings');
    for (const bad of ['ftp://example.com', 'not a url', 'http://example.com/?a=1']) {
      expect(() => readConfig({ PRESET_BASE_URL: bad })).toThrow(/PRESET_BASE_URL must be/);
    }
  });
});

describe('a followed filings preset with a preset base URL', () => {
  let h: Harness;
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
    h = await createHarness('sqlite', { seed: false });
  });
  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('is fetched from <base>/<key> and parsed by its parser into typed filing cards', async () => {
    server.set('/recorded/sec', {
      body: fixture('filings/sec-getcurrent.atom'),
      headers: { 'content-type': 'application/atom+xml; charset=ISO-8859-1' },
    });
    const { token } = await newUser(h);
    await follow(h, token, 'sec');

    const runner = createIngestRunner({
      db: h.db,
      dialect: h.dialect,
      now: () => h.clock.now,
      log: () => {},
      fetch: { allowPrivate: true, timeoutMs: 2000 },
      presetBaseUrl: server.url('/recorded/'),
    });
    expect(await runner.runDue()).toBe(1);
    await runner.stop();

    expect(server.hits('/recorded/sec')).toBe(1);
    const docs = await h.db
      .selectFrom('documents')
      .innerJoin('sources', 'sources.id', 'documents.source_id')
      .select([
        'documents.company_name',
        'documents.category',
        'documents.market',
        'documents.category_tab',
      ])
      .where('sources.key', '=', 'sec')
      .execute();
    const filed = { market: 'us_capital_markets', category_tab: 'exchanges' };
    expect(docs.sort((a, b) => (a.company_name ?? '').localeCompare(b.company_name ?? ''))).toEqual(
      [
        { company_name: 'Apple Inc.', category: '4', ...filed },
        { company_name: 'Cook Timothy D', category: '4', ...filed },
        { company_name: 'MICROSOFT CORP', category: '8-K', ...filed },
        { company_name: 'TESLA, INC.', category: '10-K', ...filed },
      ],
    );

    // The user is told the source read well.
    const res = await h.call('GET', '/source/status', { token });
    expect(res.body.results).toEqual([
      expect.objectContaining({
        kind: 'filings',
        status: expect.objectContaining({ state: 'ok', items: 4, last_new: 4, last_error: null }),
      }),
    ]);
  });
});
