import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_DEFINITION } from '../../contract/boards';
import { draft, followFixture, writeFixture } from './boards-fixture';
import { feedTitles, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

describe.each(STORAGES)('AI feeds, suggestions and previews on %s', (storage) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFixture(h);
    ({ token } = await newUser(h));
    await followFixture(h, token);
  });
  afterAll(async () => {
    await h?.close();
  });

  const preview = async (definition: unknown) => {
    const res = await h.call('POST', '/boards/new/preview', { token, body: { definition } });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return {
      count: res.body.results.count as number,
      titles: res.body.results.documents.map((d: { title: string }) => d.title) as string[],
    };
  };

  it('offers companies, topics and attributes from what the user follows', async () => {
    expect((await h.call('GET', '/boards/feed_choices', { token })).body).toEqual({
      companies: [
        'Deccan Commercial Bank Ltd',
        'Aravalli Steel Industries Ltd',
        'Northwind Semiconductor Inc',
      ],
      topics: ['Monetary Policy', 'Earnings', 'Inflation'],
      attributes: ['10-K', 'Board Meeting', 'Credit Rating'],
    });
    const stranger = await newUser(h);
    expect((await h.call('GET', '/boards/feed_choices', { token: stranger.token })).body).toEqual({
      companies: [],
      topics: [],
      attributes: [],
    });
  });

  it('proposes keywords and the sources holding matches, with reasons and a count', async () => {
    const picks = {
      companies: ['Deccan Commercial Bank Ltd'],
      topics: ['Inflation'],
      attributes: [],
    };
    const res = await h.call('POST', '/boards/ai_smarts', { token, body: picks });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      board_name: 'Deccan Commercial Bank Ltd and Inflation',
      description: 'AI feed on Deccan Commercial Bank Ltd and Inflation',
      reasons: [
        'Deccan Commercial Bank Ltd: 2 documents (1 in Indian Filings (demo), 1 in Markets Wire)',
        'Inflation: 2 documents (2 in Markets Wire)',
      ],
      count: 4,
    });
    expect(res.body.definition).toEqual({
      sources: ['demo_markets_wire', 'demo_india_filings'],
      keywords: {
        include: [
          { keyword: '"Deccan Commercial Bank Ltd"', valid: true },
          { keyword: 'Inflation', valid: true },
        ],
        exclude: [],
      },
      filters: { filter: [], exclusion_filter: [] },
      date_range: null,
      ai: picks,
    });
    // The user reviews and saves it: the feed holds what was counted.
    const saved = await h.call('POST', '/boards/v2', {
      token,
      body: { board_name: res.body.board_name, kind: 'ai', definition: res.body.definition },
    });
    expect(saved.body.kind).toBe('ai');
    expect(await feedTitles(h, token, saved.body.board_id)).toEqual([
      'Fed leaves rates unchanged',
      'India retail inflation eases to 4.3%',
      'Deccan Bank Q3 profit rises 12%',
      'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
    ]);
  });

  it('narrows a proposal by attributes, and needs at least one pick', async () => {
    const res = await h.call('POST', '/boards/ai_smarts', {
      token,
      body: {
        companies: ['Aravalli Steel Industries Ltd', 'Deccan Commercial Bank Ltd'],
        topics: [],
        attributes: ['Credit Rating'],
      },
    });
    expect(res.body.count).toBe(1);
    expect(res.body.reasons).toEqual([
      'Aravalli Steel Industries Ltd: 1 documents (1 in Indian Filings (demo))',
      'Deccan Commercial Bank Ltd: no documents yet in the sources you follow',
      'Only documents filed as Credit Rating',
    ]);
    const empty = await h.call('POST', '/boards/ai_smarts', {
      token,
      body: { companies: [], topics: [], attributes: [] },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('pick at least one company, topic or attribute');
  });

  it('suggests feeds by leading company, topic and filing category', async () => {
    const res = await h.call('GET', '/boards/suggestions', { token });
    expect(
      res.body.results.map((s: { board_name: string; count: number; reasons: string[] }) => [
        s.board_name,
        s.count,
        s.reasons[0],
      ]),
    ).toEqual([
      [
        'Deccan Commercial Bank Ltd',
        2,
        'Deccan Commercial Bank Ltd is named in 2 of your documents',
      ],
      [
        'Aravalli Steel Industries Ltd',
        1,
        'Aravalli Steel Industries Ltd is named in 1 of your documents',
      ],
      [
        'Northwind Semiconductor Inc',
        1,
        'Northwind Semiconductor Inc is named in 1 of your documents',
      ],
      ['Monetary Policy', 2, 'Monetary Policy comes up in 2 recent documents'],
      ['Earnings', 1, 'Earnings comes up in 1 recent documents'],
      ['10-K', 1, '1 of your documents are filed as 10-K'],
    ]);
    const board = (
      await h.call('POST', '/boards/v2', { token, body: draft('Names', ['Deccan OR Aravalli']) })
    ).body;
    const refined = await h.call('GET', `/boards/${board.board_id}/suggestions`, { token });
    expect(
      refined.body.results.map((s: { board_name: string; count: number }) => [
        s.board_name,
        s.count,
      ]),
    ).toEqual([
      ['Deccan Commercial Bank Ltd', 2],
      ['Aravalli Steel Industries Ltd', 1],
      ['Indian Exchange', 2],
    ]);
    expect(refined.body.results[2].definition.filters.filter).toEqual([
      { name: 'tab', values: ['india_capital_markets'] },
    ]);
  });

  it('previews keywords, source filters and date ranges without saving', async () => {
    const base = { ...EMPTY_DEFINITION };
    expect(await preview(draft('x', ['bank']).definition)).toEqual({
      count: 2,
      titles: [
        'Deccan Bank Q3 profit rises 12%',
        'Deccan Commercial Bank Ltd - Outcome of Board Meeting',
      ],
    });
    const company = { name: 'company', values: ['deccan commercial bank ltd'] };
    expect(
      (await preview({ ...base, filters: { filter: [company], exclusion_filter: [] } })).count,
    ).toBe(2);
    expect(
      await preview({
        ...base,
        filters: { filter: [company], exclusion_filter: [{ name: 'tab', values: ['rss_news'] }] },
      }),
    ).toEqual({ count: 1, titles: ['Deccan Commercial Bank Ltd - Outcome of Board Meeting'] });
    const days = (startDate: string, endDate: string) => ({
      ...base,
      date_range: { durationOption: null, startDate, endDate },
    });
    expect((await preview(days('01-03-2025', '02-03-2025'))).count).toBe(0);
    expect((await preview(days('03-03-2025', '03-03-2025'))).count).toBe(7);
    expect(
      (
        await preview({
          ...base,
          date_range: { durationOption: '1d', startDate: null, endDate: null },
        })
      ).count,
    ).toBe(7);
    expect(
      (await h.call('GET', '/boards/v2?hidden=true', { token })).body.results.map(
        (b: { board_name: string }) => b.board_name,
      ),
    ).not.toContain('x');
  });
});
