import { describe, expect, it } from 'vitest';
import { EMPTY_DEFINITION } from '../../contract/boards';
import { createFaultyFetch, createGate, newUser, setupWorkspaceSuite } from './support';

/** Feeds from the worker: the list, the builder's calls, enabling at once. */
const suite = setupWorkspaceSuite({ ingest: false });

const draft = (name: string, keyword: string) => ({
  board_name: name,
  description: `Documents about ${keyword}`,
  kind: 'custom' as const,
  definition: {
    ...EMPTY_DEFINITION,
    keywords: { include: [{ keyword, valid: true }], exclude: [] },
  },
});

describe('feeds from the worker', () => {
  it('lists, duplicates and hides feeds; hiding shows at once in every tab', async () => {
    const faulty = createFaultyFetch();
    const ws = suite.workspace({ fetch: faulty.fetch });
    const a = await ws.tab('a');
    const b = await ws.tab('b');
    await a.api.call('auth.signUp', newUser());
    await a.api.call('sources.followMany', { keys: ['demo_markets_wire', 'demo_us_filings'] });
    expect(await a.api.call('boards.list', {})).toEqual([]);

    const made = await a.api.call('boards.create', draft('Buybacks', 'buyback'));
    expect(made).toMatchObject({ board_name: 'Buybacks', enabled: true, isNew: true });
    const copy = await a.api.call('boards.duplicate', { id: made.board_id });
    expect(copy.board_name).toBe('Buybacks (copy)');
    expect((await b.api.call('boards.list', {})).map((x) => x.board_name)).toEqual([
      'Buybacks',
      'Buybacks (copy)',
    ]);
    expect(await b.api.call('boards.get', { id: copy.board_id })).toEqual(copy);

    // Hidden at once, before the server answers; the list without hidden feeds leaves it out.
    const gate = createGate();
    faulty.state.rule = (url) => (url.includes('/boards/enable/') ? { hold: gate.opened } : null);
    const hiding = a.api.call('boards.enable', { id: copy.board_id, enabled: false });
    await expect
      .poll(async () => (await b.api.call('boards.list', {})).map((x) => x.board_name))
      .toEqual(['Buybacks']);
    expect((await b.api.call('boards.list', { hidden: true })).map((x) => x.enabled)).toEqual([
      true,
      false,
    ]);
    gate.open();
    expect(await hiding).toMatchObject({ board_id: copy.board_id, enabled: false });
  });

  it("answers the builder's calls: preview, choices, proposals, suggestions", async () => {
    const ws = suite.workspace();
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    await tab.api.call('sources.followMany', { keys: ['demo_markets_wire', 'demo_india_filings'] });

    const preview = await tab.api.call('boards.preview', {
      definition: draft('x', 'dividend').definition,
    });
    expect(preview.results.count).toBeGreaterThan(0);
    expect(preview.results.documents.length).toBeGreaterThan(0);

    const choices = await tab.api.call('boards.choices', {});
    expect(choices.companies.length).toBeGreaterThan(0);
    const proposal = await tab.api.call('boards.aiSmarts', {
      companies: [choices.companies[0]],
      topics: [],
      attributes: [],
    });
    expect(proposal.count).toBeGreaterThan(0);
    expect(proposal.reasons.length).toBeGreaterThan(0);
    await expect(
      tab.api.call('boards.aiSmarts', { companies: [], topics: [], attributes: [] }),
    ).rejects.toThrow('pick at least one company, topic or attribute');

    const suggested = await tab.api.call('boards.suggestions', {});
    expect(suggested.results.length).toBeGreaterThan(0);
  });
});
