import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draft, writeFixture } from './boards-fixture';
import { changesOf, feedTitles, follow, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/** Add to feeds: GET and POST /source/public/{id}/boards, the user's own feeds only. */
describe.each(STORAGES)('add to feeds on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFixture(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A user following the wire and the Indian filings, with two feeds reading the filings. */
  const setUp = async () => {
    const { token } = await newUser(h);
    const wire = (await follow(h, token, 'demo_markets_wire')).source.source_id as string;
    const filings = (await follow(h, token, 'demo_india_filings')).source.source_id as string;
    const make = async (name: string, sources: string[]) =>
      (
        await h.call('POST', '/boards/v2', {
          token,
          body: draft(name, [], [], { sources }),
        })
      ).body.board_id as string;
    const banks = await make('Banks', [filings]);
    const steel = await make('Steel', [filings]);
    const everything = await make('Everything', []);
    return { token, wire, filings, banks, steel, everything };
  };

  it("lists the user's feeds, marking those that read the source", async () => {
    const u = await setUp();
    const res = await h.call('GET', '/source/public/demo_markets_wire/boards', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { board_id: u.banks, board_name: 'Banks', selected: false, reads_all: false },
      { board_id: u.everything, board_name: 'Everything', selected: true, reads_all: true },
      { board_id: u.steel, board_name: 'Steel', selected: false, reads_all: false },
    ]);
    // By source id too.
    const byId = await h.call('GET', `/source/public/${u.filings}/boards`, { token: u.token });
    expect(byId.body.results.map((b: { selected: boolean }) => b.selected)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('adds the source to the chosen feeds and takes it out of the others', async () => {
    const u = await setUp();
    expect(await feedTitles(h, u.token, u.banks)).not.toContain('RBI holds repo rate at 6.50%');
    const res = await h.call('POST', '/source/public/demo_markets_wire/boards', {
      token: u.token,
      body: { boards: [u.banks, u.everything] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { board_id: u.banks, board_name: 'Banks', selected: true, reads_all: false },
      { board_id: u.everything, board_name: 'Everything', selected: true, reads_all: true },
      { board_id: u.steel, board_name: 'Steel', selected: false, reads_all: false },
    ]);
    // The feed reads the source's documents now, and the user's devices hear of the edit.
    expect(await feedTitles(h, u.token, u.banks)).toContain('RBI holds repo rate at 6.50%');
    const board = await h.call('GET', `/boards/${u.banks}`, { token: u.token });
    expect(board.body.definition.sources).toEqual([u.filings, u.wire]);
    const changes = await changesOf(h, u.token);
    expect(changes.some((c) => c.entity === 'board' && c.entity_id === u.banks)).toBe(true);

    // Taking it out again.
    const out = await h.call('POST', '/source/public/demo_markets_wire/boards', {
      token: u.token,
      body: { boards: [u.everything] },
    });
    expect(out.status).toBe(200);
    expect(out.body.results[0]).toEqual({
      board_id: u.banks,
      board_name: 'Banks',
      selected: false,
      reads_all: false,
    });
    expect(await feedTitles(h, u.token, u.banks)).not.toContain('RBI holds repo rate at 6.50%');
  });

  it('refuses what would change a feed it cannot, naming it, and changes nothing', async () => {
    const u = await setUp();
    const post = (boards: string[], key = 'demo_markets_wire') =>
      h.call('POST', `/source/public/${key}/boards`, { token: u.token, body: { boards } });
    const allOut = await post([u.banks]);
    expect(allOut.status).toBe(400);
    expect(allOut.body.message).toBe(
      'boards: “Everything” reads every source you follow; edit the feed to choose its sources',
    );
    const only = await post([u.everything, u.steel], 'demo_india_filings');
    expect(only.status).toBe(400);
    expect(only.body.message).toBe(
      'boards: “Banks” reads only this source; a feed keeps at least one',
    );
    const missing = await post([u.everything], 'no_such_source');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('no such source: no_such_source');
    const after = await h.call('GET', '/source/public/demo_markets_wire/boards', {
      token: u.token,
    });
    expect(after.body.results.map((b: { selected: boolean }) => b.selected)).toEqual([
      false,
      true,
      false,
    ]);
  });

  it("neither lists nor changes another user's feeds", async () => {
    const owner = await setUp();
    const other = await setUp();
    const list = await h.call('GET', '/source/public/demo_markets_wire/boards', {
      token: other.token,
    });
    expect(list.body.results.map((b: { board_id: string }) => b.board_id)).toEqual([
      other.banks,
      other.everything,
      other.steel,
    ]);
    const res = await h.call('POST', '/source/public/demo_markets_wire/boards', {
      token: other.token,
      body: { boards: [other.everything, owner.banks] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`boards: no such feed: ${owner.banks}`);
    const board = await h.call('GET', `/boards/${owner.banks}`, { token: owner.token });
    expect(board.body.definition.sources).toEqual([owner.filings]);
    expect((await h.call('GET', '/source/public/demo_markets_wire/boards', {})).status).toBe(401);
  });
});
