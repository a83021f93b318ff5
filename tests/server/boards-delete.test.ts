import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draft, followFixture, writeFixture } from './boards-fixture';
import { changesOf, feedTitles, newUser } from './documents-helpers';
import { createHarness, type Harness } from './harness';

/** DELETE /boards/{id}: a feed is deleted by its owner only, entries and all. */
describe('deleting a custom feed (SQLite)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    await writeFixture(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const create = async (token: string, name: string, include: string[]) => {
    const res = await h.call('POST', '/boards/v2', { token, body: draft(name, include) });
    expect(res.status).toBe(201);
    return res.body.board_id as string;
  };
  const entriesOf = async (feedId: string) =>
    (
      await h.db
        .selectFrom('feed_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('feed_id', '=', feedId)
        .executeTakeFirstOrThrow()
    ).n;

  it('deletes the owner’s feed, its entries, and announces it on the change feed', async () => {
    const { token } = await newUser(h);
    await followFixture(h, token);
    const id = await create(token, 'Rates', ['"repo rate" OR inflation']);
    const kept = await create(token, 'Deccan', ['Deccan']);
    expect(await feedTitles(h, token, id)).toEqual([
      'RBI holds repo rate at 6.50%',
      'Fed leaves rates unchanged',
      'India retail inflation eases to 4.3%',
    ]);
    expect(Number(await entriesOf(id))).toBe(3);

    const res = await h.call('DELETE', `/boards/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    expect(Number(await entriesOf(id))).toBe(0);
    const gone = await h.call('GET', `/boards/${id}`, { token });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(`no such feed: ${id}`);
    expect((await h.call('GET', `/boards/${id}/v2`, { token })).status).toBe(404);
    const listed = (await h.call('GET', '/boards/v2?hidden=true', { token })).body.results;
    expect(listed.map((b: { board_id: string }) => b.board_id)).toEqual([kept]);
    const last = (await changesOf(h, token)).at(-1)!;
    expect([last.entity, last.entity_id, last.op]).toEqual(['board', id, 'delete']);

    // Deleting it again: it is not there.
    const again = await h.call('DELETE', `/boards/${id}`, { token });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`no such feed: ${id}`);
  });

  it("answers 404 for another user's feed and leaves it whole", async () => {
    const owner = await newUser(h);
    const other = await newUser(h);
    await followFixture(h, owner.token);
    const id = await create(owner.token, 'Private', ['"repo rate"']);

    const res = await h.call('DELETE', `/boards/${id}`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`no such feed: ${id}`);
    const still = await h.call('GET', `/boards/${id}`, { token: owner.token });
    expect(still.body.board_name).toBe('Private');
    expect(Number(await entriesOf(id))).toBe(1);
  });

  it('does not delete the home feed, and needs a signed-in user', async () => {
    const { token } = await newUser(h);
    const home = await h.call('DELETE', '/boards/home', { token });
    expect(home.status).toBe(404);
    expect(home.body.message).toBe('no such feed: home');
    expect((await h.call('DELETE', '/boards/whatever', {})).status).toBe(401);
  });
});
