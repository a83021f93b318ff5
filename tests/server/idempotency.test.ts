import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

// The rules of a key, on one back end; keys raced for on every back end: concurrency.test.ts.
describe.each(STORAGE_INDEPENDENT)('idempotency keys on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage);
  });
  afterAll(async () => {
    await h?.close();
  });

  const changesOf = async (token: string) =>
    (await h.call('GET', '/sync/changes?after=0', { token })).body;

  it('replays the first answer and applies the change once', async () => {
    const { session } = await h.signUp();
    const token = session.id_token;
    const key = randomUUID();
    const first = await h.call('PUT', '/user/preferences', {
      token,
      key,
      body: { nav_state: 'closed', overlay_widths: { preview: 70 } },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    // A different change in between: the replay must still say what the first call did.
    await h.call('PUT', '/user/preferences', { token, body: { nav_state: 'opened' } });
    const again = await h.call('PUT', '/user/preferences', {
      token,
      key,
      body: { nav_state: 'closed', overlay_widths: { preview: 70 } },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    const feed = await changesOf(token);
    expect(feed.changes.filter((c: { entity: string }) => c.entity === 'preferences')).toHaveLength(
      2,
    );
    const prefs = await h.call('GET', '/user/preferences', { token });
    expect(prefs.body.nav_state).toBe('opened');
  });

  it('replays a sign-up instead of answering "already exists"', async () => {
    const key = randomUUID();
    const body = {
      name: 'Retry',
      email: `retry-${randomUUID()}@example.com`,
      password: 'long-enough',
    };
    const first = await h.call('POST', '/auth/signup', { key, body });
    const again = await h.call('POST', '/auth/signup', { key, body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const users = await h.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', body.email)
      .execute();
    expect(users).toHaveLength(1);
  });

  it('does not store a failed attempt, so a corrected retry runs', async () => {
    const { email } = await h.signUp();
    const key = randomUUID();
    const wrong = await h.call('POST', '/auth/signin', {
      key,
      body: { email, password: 'wrong-password' },
    });
    expect(wrong.status).toBe(401);
    const right = await h.call('POST', '/auth/signin', {
      key,
      body: { email, password: 'correct-horse' },
    });
    expect(right.status).toBe(200);
    expect(right.headers.get('idempotent-replay')).toBeNull();
  });

  it('refuses a key reused for a different body', async () => {
    const { session } = await h.signUp();
    const key = randomUUID();
    await h.call('PUT', '/user/preferences', {
      token: session.id_token,
      key,
      body: { nav_state: 'open' },
    });
    const other = await h.call('PUT', '/user/preferences', {
      token: session.id_token,
      key,
      body: { nav_state: 'closed' },
    });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(
      'idempotency-key was already used for a different request body',
    );
  });

  it('applies two racing requests with one key once', async () => {
    const { session } = await h.signUp();
    const key = randomUUID();
    const send = () =>
      h.call('PUT', '/user/preferences', {
        token: session.id_token,
        key,
        body: { overlay_widths: { report: 61 } },
      });
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0].body).toEqual(answers[1].body);
    expect(answers.filter((a) => a.headers.get('idempotent-replay') === 'true')).toHaveLength(1);
    expect((await changesOf(session.id_token)).changes).toHaveLength(1);
  });

  it('forgets a key after a day', async () => {
    const { session } = await h.signUp();
    const key = randomUUID();
    const body = { nav_state: 'open' };
    await h.call('PUT', '/user/preferences', { token: session.id_token, key, body });
    h.clock.now += 24 * 3600_000 + 1000;
    const fresh = await h.signIn(session.user.email);
    await h.call('PUT', '/user/preferences', { token: fresh, body: { nav_state: 'closed' } });
    const again = await h.call('PUT', '/user/preferences', { token: fresh, key, body });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replay')).toBeNull();
    // Run again, not replayed: the state is the key's body's, not the one set in between.
    expect(again.body).toEqual({ nav_state: 'open', overlay_widths: {} });
    expect((await changesOf(fresh)).changes).toHaveLength(3);
  });

  it('refuses an over-long key', async () => {
    const res = await h.call('POST', '/auth/forgot-password', {
      key: 'k'.repeat(201),
      body: { email: 'a@example.com' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('idempotency-key: must be 1 to 200 characters');
  });

  it('keeps keys apart per user', async () => {
    const a = await h.signUp();
    const b = await h.signUp();
    const key = randomUUID();
    const body = { nav_state: 'peek' };
    await h.call('PUT', '/user/preferences', { token: a.session.id_token, key, body });
    const res = await h.call('PUT', '/user/preferences', {
      token: b.session.id_token,
      key,
      body,
    });
    expect(res.headers.get('idempotent-replay')).toBeNull();
    expect((await changesOf(b.session.id_token)).changes).toHaveLength(1);
  });
});
