import { describe, expect, it } from 'vitest';
import { EMPTY_DEFINITION } from '../../contract/boards';
import { createFaultyFetch, createGate, newUser, setupWorkspaceSuite } from './support';

/** boards.delete: gone from every tab at once, and from the server once it answers. */
const suite = setupWorkspaceSuite({ ingest: false });

const draft = (name: string, keyword: string) => ({
  board_name: name,
  description: '',
  kind: 'custom' as const,
  definition: {
    ...EMPTY_DEFINITION,
    keywords: { include: [{ keyword, valid: true }], exclude: [] },
  },
});

describe('deleting a feed from the worker', () => {
  it('drops it from every tab before the server answers, and the server agrees', async () => {
    const faulty = createFaultyFetch();
    const ws = suite.workspace({ fetch: faulty.fetch });
    const a = await ws.tab('a');
    const b = await ws.tab('b');
    await a.api.call('auth.signUp', newUser());
    const kept = await a.api.call('boards.create', draft('Buybacks', 'buyback'));
    const gone = await a.api.call('boards.create', draft('Dividends', 'dividend'));
    expect((await b.api.call('boards.list', { hidden: true })).map((x) => x.board_name)).toEqual([
      'Buybacks',
      'Dividends',
    ]);

    const gate = createGate();
    faulty.state.rule = (url, init) =>
      init.method === 'DELETE' && url.includes('/boards/') ? { hold: gate.opened } : null;
    const deleting = a.api.call('boards.delete', { id: gone.board_id });
    await expect
      .poll(async () => (await b.api.call('boards.list', { hidden: true })).map((x) => x.board_id))
      .toEqual([kept.board_id]);
    gate.open();
    await deleting;
    await expect
      .poll(() => faulty.state.sent.filter((r) => r.startsWith('DELETE ')))
      .toEqual([`DELETE /api/boards/${gone.board_id}`]);

    // Asked by id, the feed is fetched from the server, which has no such feed any more.
    await expect(b.api.call('boards.get', { id: gone.board_id })).rejects.toMatchObject({
      status: 404,
    });
    expect((await a.api.call('boards.list', { hidden: true })).map((x) => x.board_id)).toEqual([
      kept.board_id,
    ]);
  });
});
