import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIORITY_TEXT } from '../../contract/sources';
import {
  addDocs,
  changesOf,
  feedTitles,
  follow,
  news,
  newUser,
  unfollow,
} from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

describe.each(STORAGES)('sources on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists the catalogue by category, grouped as 000 §3 says', async () => {
    const { token } = await newUser(h);
    const res = await h.call('GET', '/categories', { token });
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(
      res.body.results.map(
        (c: { key: string; label: string; sources: Array<{ key: string; label: string }> }) => [
          c.key,
          { label: c.label, sources: c.sources.map((s) => `${s.key}=${s.label}`).sort() },
        ],
      ),
    );
    expect(res.body.results.map((c: { key: string }) => c.key)).toEqual([
      'india_capital_markets',
      'us_capital_markets',
      'nz_capital_markets',
      'demo_content',
    ]);
    expect(byKey.india_capital_markets).toEqual({
      label: 'Indian Capital Markets',
      sources: [
        'bse_annual_reports=BSE Annual Reports',
        'bse_filings=BSE Filings',
        'bse_presentations=BSE Presentations',
        'crisil=CRISIL',
        'india_earnings_call_transcripts=India Earnings Call Transcripts',
        'sebi=SEBI',
        'system_driven_disclosures_sast=System Driven Disclosures (SAST)',
      ],
    });
    expect(byKey.us_capital_markets).toEqual({
      label: 'US Capital Markets',
      sources: [
        'fasb=FASB',
        'fred=FRED',
        'pcaob=PCAOB',
        'sec=SEC',
        'us_earnings_calls=US Earnings Calls',
      ],
    });
    expect(byKey.nz_capital_markets.sources).toEqual(['nzx_filings=NZX Filings']);
    expect(byKey.demo_content.sources).toContain('demo_markets_wire=Markets Wire');
    const sec = res.body.results[1].sources.find((s: { key: string }) => s.key === 'sec');
    expect(sec).toMatchObject({
      kind: 'filings',
      category: 'exchanges_groups',
      market: 'us_capital_markets',
      group: 'US Capital Markets',
      public: true,
      followed: false,
      status: { state: 'pending', items: 0 },
    });
    expect(sec.link_to_crawl).toMatch(/^https:\/\/www\.sec\.gov\//);
  });

  it('follows with the spec toast, brings existing documents and makes the first fetch due', async () => {
    await addDocs(h, 'demo_markets_wire', [
      news('w1', 'Nifty ends at a record high', 'Banks led.', 5),
      news('w2', 'Ganga Motors volumes up 8%', 'Domestic sales.', 4),
    ]);
    const { token } = await newUser(h);
    const res = await follow(h, token, 'demo_markets_wire');
    expect(res.message).toBe('Markets Wire is successfully followed');
    expect(res.source).toMatchObject({
      key: 'demo_markets_wire',
      followed: true,
      status: { state: 'ok' },
    });
    expect(await feedTitles(h, token)).toEqual([
      'Ganga Motors volumes up 8%',
      'Nifty ends at a record high',
    ]);
    const changes = await changesOf(h, token);
    expect(changes.map((c) => c.entity)).toEqual(['feed', 'follow']);
    expect(changes[1]).toMatchObject({
      entity_id: 'demo_markets_wire',
      op: 'upsert',
      data: { followed: true },
    });

    const sec = await follow(h, token, 'sec');
    expect(sec.message).toBe('SEC is successfully followed');
    expect(sec.source.status).toMatchObject({
      state: 'pending',
      next_run_at: '2025-03-03T10:00:00.000Z',
    });
  });

  it('unfollows with the spec toast, marking its documents removed for mirrors', async () => {
    await addDocs(h, 'demo_macro_monitor', [
      news('m1', 'Fed leaves rates unchanged', 'Steady.', 2),
    ]);
    const { token } = await newUser(h);
    await follow(h, token, 'demo_macro_monitor');
    const { seq } = (await h.call('GET', '/boards/home/v2', { token })).body.results;
    const res = await unfollow(h, token, 'demo_macro_monitor');
    expect(res.body.message).toBe('Macro Monitor is successfully unfollowed');
    expect(res.body.source.followed).toBe(false);
    expect(await feedTitles(h, token)).toEqual([]);
    const changed = await h.call('GET', `/boards/home/v2?after_seq=${seq}`, { token });
    expect(changed.body.results.documents).toMatchObject([
      { title: 'Fed leaves rates unchanged', removed: true },
    ]);
    expect(changed.body.results.count).toBe(0);
    expect((await changesOf(h, token)).slice(-2).map((c) => `${c.entity}:${c.op}`)).toEqual([
      'feed:upsert',
      'follow:delete',
    ]);
    // Following again brings it back.
    await follow(h, token, 'demo_macro_monitor');
    expect(await feedTitles(h, token)).toEqual(['Fed leaves rates unchanged']);
  });

  it('answers 404 for an unknown key and 400 for a malformed body', async () => {
    const { token } = await newUser(h);
    const unknown = await h.call('POST', '/connect/public', { token, body: { key: 'no_such' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('no such source: no_such');
    expect((await h.call('POST', '/connect/public', { token, body: {} })).body.message).toBe(
      'key: key must be text',
    );
    expect(
      (await h.call('POST', '/connect/public', { token, body: { key: 'sec', x: 1 } })).status,
    ).toBe(400);
  });

  it('follows several at once, or none when one is unknown', async () => {
    const { token } = await newUser(h);
    const bad = await h.call('POST', '/connect/public/multiple', {
      token,
      body: { keys: ['sebi', 'nope', 'bse_filings', 'also_nope'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('keys: no such source: nope, also_nope');
    expect((await h.call('GET', '/source/status', { token })).body.results).toEqual([]);
    const ok = await h.call('POST', '/connect/public/multiple', {
      token,
      body: { keys: ['sebi', 'bse_filings'] },
    });
    expect(
      ok.body.sources.map((s: { key: string; followed: boolean }) => `${s.key}:${s.followed}`),
    ).toEqual(['sebi:true', 'bse_filings:true']);
    const status = (await h.call('GET', '/source/status', { token })).body.results;
    expect(status.map((s: { label: string }) => s.label)).toEqual(['BSE Filings', 'SEBI']);
    expect(
      (await h.call('POST', '/connect/public/multiple', { token, body: { keys: [] } })).body
        .message,
    ).toBe('keys: keys must not be empty');
  });

  it('sets priority on 1 to 50 followed sources with the spec texts', async () => {
    const { token } = await newUser(h);
    await follow(h, token, 'fred');
    await follow(h, token, 'fasb');
    const put = (body: unknown) => h.call('PUT', '/source/public', { token, body });
    const ok = await put({ source_ids: ['fred'], priority: true });
    expect(ok.body).toEqual({ updated: 1, message: 'Priority updated successfully.' });
    const priority = await h.call('GET', '/source/public?priority_websites=true', { token });
    expect(priority.body.sources.map((s: { key: string }) => s.key)).toEqual(['fred']);
    const tooMany = await put({
      source_ids: Array.from({ length: 51 }, (_, i) => `s${i}`),
      priority: true,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(`source_ids: ${PRIORITY_TEXT.tooMany}`);
    expect((await put({ source_ids: [], priority: true })).body.message).toBe(
      'source_ids: Please select 50 or less sources to proceed',
    );
    const notFollowed = await put({ source_ids: ['fred', 'sec'], priority: true });
    expect(notFollowed.body.message).toBe('source_ids: not followed: sec');
  });

  it('lists feeds by topic', async () => {
    const { token } = await newUser(h);
    const res = await h.call('GET', '/connect/rssTopics', { token });
    expect(
      res.body.results.map((t: { topic: string; label: string }) => `${t.topic}=${t.label}`),
    ).toEqual([
      'economics=Economics',
      'finance=Finance',
      'healthcare=Healthcare',
      'law=Law',
      'media=Media',
      'technology=Technology',
    ]);
    expect(res.body.results[0].sources.map((s: { key: string }) => s.key).sort()).toEqual([
      'demo_macro_monitor',
      'fred',
    ]);
  });
});
