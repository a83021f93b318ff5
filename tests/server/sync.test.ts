import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, STORAGES, type Harness } from './harness';

const DAY = 24 * 3600_000;

describe.each(STORAGES)('the change log over time on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, {
      seed: false,
      changeRetention: { maxPerUser: 5, maxAgeMs: 30 * DAY },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A fresh user with `n` changes (nav_state flips, so each PUT changes something). */
  const userWithChanges = async (n: number) => {
    const { session, email } = await h.signUp();
    const token = session.id_token;
    for (let i = 0; i < n; i++) await change(token, i);
    return { token, email, userId: session.user.id };
  };
  const change = (token: string, i: number) =>
    h.call('PUT', '/user/preferences', { token, body: { nav_state: i % 2 ? 'open' : 'closed' } });
  const pull = async (token: string, after: number) =>
    (await h.call('GET', `/sync/changes?after=${after}`, { token })).body;
  const seqsOf = (page: { changes: Array<{ seq: number }> }) => page.changes.map((c) => c.seq);
  const keptSeqs = async (userId: string) =>
    (
      await h.db
        .selectFrom('changes')
        .select('seq')
        .where('user_id', '=', userId)
        .orderBy('seq')
        .execute()
    ).map((r) => r.seq);

  it("keeps a user's newest 5 changes and resets a cursor older than them", async () => {
    const { token, userId } = await userWithChanges(8);
    await h.maintain();
    expect(await keptSeqs(userId)).toEqual([4, 5, 6, 7, 8]);

    const stale = { changes: [], cursor: 8, has_more: false, reset: true };
    expect(await pull(token, 0)).toEqual(stale);
    expect(await pull(token, 2)).toEqual(stale);
    // At the floor (3) nothing after it is missing: no reset.
    const atFloor = await pull(token, 3);
    expect(atFloor.reset).toBe(false);
    expect(seqsOf(atFloor)).toEqual([4, 5, 6, 7, 8]);
    const after = await pull(token, 6);
    expect(after).toMatchObject({ cursor: 8, has_more: false, reset: false });
    expect(seqsOf(after)).toEqual([7, 8]);
  });

  it('holds the bound as changes keep coming', async () => {
    const { token, userId } = await userWithChanges(3);
    await h.maintain();
    expect(await keptSeqs(userId)).toEqual([1, 2, 3]);
    for (let i = 3; i < 23; i++) await change(token, i);
    await h.maintain();
    expect(await keptSeqs(userId)).toEqual([19, 20, 21, 22, 23]);
    expect((await pull(token, 17)).reset).toBe(true);
    expect(seqsOf(await pull(token, 18))).toEqual([19, 20, 21, 22, 23]);
  });

  it('drops changes older than 30 days, however few', async () => {
    const { email, userId } = await userWithChanges(2);
    h.clock.now += 31 * DAY;
    // The id token has long expired: sign in again for the new change.
    const fresh = await h.signIn(email);
    await change(fresh, 2);
    await h.maintain();
    expect(await keptSeqs(userId)).toEqual([3]);
    expect(await pull(fresh, 1)).toEqual({ changes: [], cursor: 3, has_more: false, reset: true });
    expect(seqsOf(await pull(fresh, 2))).toEqual([3]);
  });

  it('resets a cursor beyond anything handed out (one from another database)', async () => {
    const { token } = await userWithChanges(1);
    expect(await pull(token, 50)).toEqual({ changes: [], cursor: 1, has_more: false, reset: true });
    expect(await pull(token, 1)).toEqual({ changes: [], cursor: 1, has_more: false, reset: false });
  });

  it("leaves a user's short, recent log whole", async () => {
    const { token, userId } = await userWithChanges(4);
    await h.maintain();
    expect(await keptSeqs(userId)).toEqual([1, 2, 3, 4]);
    const page = await pull(token, 0);
    expect(page.reset).toBe(false);
    expect(seqsOf(page)).toEqual([1, 2, 3, 4]);
  });
});
