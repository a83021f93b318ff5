import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../server/db/tx';
import { setFlagOverride } from '../../server/user/flags';
import { createHarness, STORAGES, type Harness } from './harness';

describe.each(STORAGES)('workspace API on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage);
  });
  afterAll(async () => {
    await h?.close();
  });

  const changesOf = async (token: string, after = 0, limit = 200) =>
    (await h.call('GET', `/sync/changes?after=${after}&limit=${limit}`, { token })).body;

  it('answers health with the database kind', async () => {
    const res = await h.call('GET', '/health');
    expect(res.body).toEqual({
      status: 'ok',
      product: 'needl',
      database: storage === 'sqlite' ? 'sqlite' : 'postgres',
    });
  });

  it('recognises a unique violation from this database', async () => {
    await h.db.insertInto('meta').values({ key: 'twice', value: '1' }).execute();
    const err = await h.db
      .insertInto('meta')
      .values({ key: 'twice', value: '2' })
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('pages the change feed with a cursor', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    const states = ['open', 'opened', 'close', 'closed', 'peek'];
    for (const nav_state of states) {
      await h.call('PUT', '/user/preferences', { token, body: { nav_state } });
    }
    const seen: string[] = [];
    let cursor = 0;
    let pages = 0;
    for (;;) {
      const page = await changesOf(token, cursor, 2);
      pages++;
      seen.push(...page.changes.map((c: { data: { nav_state: string } }) => c.data.nav_state));
      for (const c of page.changes) expect(c.seq).toBeGreaterThan(cursor);
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    expect(seen).toEqual(states);
    expect(pages).toBe(3);
    const empty = await changesOf(token, cursor, 2);
    expect(empty).toEqual({ changes: [], cursor, has_more: false, reset: false });
  });

  it('merges concurrent preference updates of different overlays without losing one', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    const patches = [
      { overlay_widths: { preview: 40 } },
      { overlay_widths: { 'ask-needl': 41 } },
      { overlay_widths: { 'custom-feed': 42 } },
      { overlay_widths: { portfolio: 43 } },
      { overlay_widths: { report: 44 } },
      { nav_state: 'peek' },
    ];
    const answers = await Promise.all(
      patches.map((body) => h.call('PUT', '/user/preferences', { token, body })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const prefs = await h.call('GET', '/user/preferences', { token });
    expect(prefs.body).toEqual({
      nav_state: 'peek',
      overlay_widths: {
        preview: 40,
        'ask-needl': 41,
        'custom-feed': 42,
        portfolio: 43,
        report: 44,
      },
    });
    // Each change holds what its request changed, numbered 1 to 6 in the order they committed.
    const feed = await changesOf(token);
    expect(feed.changes.map((c: { seq: number }) => c.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(feed.changes.map((c: { data: unknown }) => c.data)).toEqual(
      expect.arrayContaining(patches),
    );
  });

  it('merges preference patches', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    await h.call('PUT', '/user/preferences', { token, body: { overlay_widths: { preview: 80 } } });
    const res = await h.call('PUT', '/user/preferences', {
      token,
      body: { nav_state: 'closed', overlay_widths: { report: 60 } },
    });
    expect(res.body).toEqual({ nav_state: 'closed', overlay_widths: { preview: 80, report: 60 } });
  });

  it('serves flag defaults with per-user overrides on top', async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const flags = async (token: string) =>
      (await h.call('GET', '/feature/config', { token })).body.results as Record<string, string>;
    const defaults = await flags(a.session.id_token);
    expect(defaults.is_pricing).toBe('off');
    expect(defaults.is_pulse_whatsapp_verification_enabled).toBe('off');
    expect(defaults.ask_needl_copilot).toBe('on');
    expect(defaults.ask_needl_dataset_selection_needl_universe).toBe('on');
    expect(defaults.needl_report).toBe('on');
    // Every source family the landing rule tries has a flag (the last of them included).
    expect(defaults.notes).toBe('on');
    const on = Object.keys(defaults).filter((k) => defaults[k] === 'on');
    expect(on.length).toBe(Object.keys(defaults).length - 2);

    await setFlagOverride(h.db, a.session.user.id, 'search', 'off', h.clock.now);
    await setFlagOverride(h.db, a.session.user.id, 'is_pricing', 'on', h.clock.now);
    const overridden = await flags(a.session.id_token);
    expect(overridden.search).toBe('off');
    expect(overridden.is_pricing).toBe('on');
    expect((await flags(b.session.id_token)).search).toBe('on');
    const feed = await changesOf(a.session.id_token);
    expect(feed.changes.map((c: { entity_id: string }) => c.entity_id)).toEqual([
      'search',
      'is_pricing',
    ]);
  });

  it("describes the caller's organisation and permissions", async () => {
    const demo = await h.signInDemo();
    const owner = await h.call('GET', '/organizations/self', { token: demo.id_token });
    expect(owner.body).toMatchObject({
      name: 'Demo Research',
      role: 'owner',
      permissions: ['org:read', 'org:manage', 'members:invite', 'members:remove', 'billing:manage'],
      members_count: 2,
    });
    const analyst = await h.call('POST', '/auth/signin', {
      body: { email: 'analyst@needl.ai', password: 'analyst-password' },
    });
    const member = await h.call('GET', '/organizations/self', { token: analyst.body.id_token });
    expect(member.body).toMatchObject({
      id: owner.body.id,
      role: 'member',
      permissions: ['org:read'],
      members_count: 2,
    });
    const list = await h.call('GET', '/organizations', { token: analyst.body.id_token });
    expect(list.body).toEqual({
      results: [{ id: owner.body.id, name: 'Demo Research', role: 'member' }],
    });
  });

  describe('notifications', () => {
    it('seeds 25 for the demo account, newest first', async () => {
      const demo = await h.signInDemo();
      const p1 = await h.call('GET', '/notifications?page=1', { token: demo.id_token });
      const p2 = await h.call('GET', '/notifications?page=2', { token: demo.id_token });
      expect(p1.body.results).toHaveLength(20);
      expect(p2.body.results).toHaveLength(5);
      expect(p1.body.total).toBe(25);
      const dates = [...p1.body.results, ...p2.body.results].map(
        (n: { created_at: string }) => n.created_at,
      );
      expect(dates).toEqual([...dates].sort().reverse());
    });

    it('pages 20/20/5 and keeps each user to their own', async () => {
      const a = await h.signUp();
      const b = await h.signUp();
      const rows = Array.from({ length: 45 }, (_, i) => ({
        id: randomUUID(),
        user_id: a.session.user.id,
        title: `Filing ${i}`,
        body: 'body',
        link: null,
        read: 0,
        created_at: new Date(h.clock.now - i * 60_000).toISOString(),
      }));
      await h.db.insertInto('notifications').values(rows).execute();
      const page = (token: string, n: number) =>
        h.call('GET', `/notifications?page=${n}`, { token });
      const sizes = [];
      for (const n of [1, 2, 3, 4])
        sizes.push((await page(a.session.id_token, n)).body.results.length);
      expect(sizes).toEqual([20, 20, 5, 0]);
      const first = (await page(a.session.id_token, 1)).body;
      expect(first).toMatchObject({ page: 1, page_size: 20, total: 45, unread: 45 });
      expect(first.results[0].title).toBe('Filing 0');
      expect((await page(b.session.id_token, 1)).body).toMatchObject({ results: [], total: 0 });

      // B cannot mark A's notifications; A's own count.
      const ids = rows.slice(0, 3).map((r) => r.id);
      const byB = await h.call('POST', '/notifications/read', {
        token: b.session.id_token,
        body: { ids },
      });
      expect(byB.body).toEqual({ updated: 0 });
      expect((await page(a.session.id_token, 1)).body.unread).toBe(45);
      const byA = await h.call('POST', '/notifications/read', {
        token: a.session.id_token,
        body: { ids: [...ids, 'not-an-id'] },
      });
      expect(byA.body).toEqual({ updated: 3 });
      const after = (await page(a.session.id_token, 1)).body;
      expect(after.unread).toBe(42);
      expect(after.results.slice(0, 3).every((n: { read: boolean }) => n.read)).toBe(true);
      const feed = await changesOf(a.session.id_token);
      expect(feed.changes.map((c: { entity_id: string }) => c.entity_id).sort()).toEqual(
        [...ids].sort(),
      );
    });
  });

  describe('debug logs sent with a stale id token', () => {
    const logsOf = (userId: string) =>
      h.db
        .selectFrom('debug_logs')
        .select(['data', 'expired_token'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
    const send = (token: string | undefined, where: string) =>
      h.call('POST', '/debug-logs', {
        token,
        key: randomUUID(),
        body: { logData: { where } },
      });

    // The worker reports a failed refresh with the id token it has left, expired by then.
    it('keeps a log sent with an expired or revoked id token, marked so', async () => {
      const { session } = await h.signUp();
      expect((await send(session.id_token, 'live')).status).toBe(200);
      h.clock.now += 901_000;
      const expired = await send(session.id_token, 'refresh failed');
      expect(expired.status).toBe(200);
      expect(expired.body).toEqual({ ok: true });
      // Other calls still ask for a refresh.
      const poll = await h.call('GET', '/auth/session', { token: session.id_token });
      expect(poll.status).toBe(403);

      const other = await h.signUp();
      await h.call('POST', '/auth/signout', { token: other.session.id_token, body: {} });
      expect((await send(other.session.id_token, 'after sign-out')).status).toBe(200);

      expect(await logsOf(session.user.id)).toEqual([
        { data: JSON.stringify({ where: 'live' }), expired_token: 0 },
        { data: JSON.stringify({ where: 'refresh failed' }), expired_token: 1 },
      ]);
      expect(await logsOf(other.session.user.id)).toEqual([
        { data: JSON.stringify({ where: 'after sign-out' }), expired_token: 1 },
      ]);
    });

    it('still refuses a log without a token or with an unknown one', async () => {
      const none = await send(undefined, 'anonymous');
      expect(none.status).toBe(401);
      expect(none.body.error).toBe('unauthorized');
      const unknown = await send('not-a-real-token', 'forged');
      expect(unknown.status).toBe(401);
      expect(unknown.body.message).toBe('token is not recognised; sign in again');
    });
  });

  it('stores debug logs and analytics reports', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    const log = await h.call('POST', '/debug-logs', {
      token,
      body: { logData: { where: 'test' } },
    });
    expect(log.body).toEqual({ ok: true });
    const report = await h.call('POST', '/needl-analytics/report', {
      token,
      body: {
        adblocker_installed: false,
        mp_info: { event_name: 'session', distinct_id: 'd1', email: 'e@x', name: 'n' },
        mp_error: null,
      },
    });
    expect(report.body).toEqual({ ok: true });
    const logs = await h.db
      .selectFrom('debug_logs')
      .selectAll()
      .where('user_id', '=', session.user.id)
      .execute();
    expect(JSON.parse(logs[0].data)).toEqual({ where: 'test' });
    const reports = await h.db
      .selectFrom('analytics_reports')
      .selectAll()
      .where('user_id', '=', session.user.id)
      .execute();
    expect(reports.map((r) => r.event_name)).toEqual(['session']);
  });
});
