import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../contract/auth';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

/**
 * The user-settings screen's calls (contract/auth.ts): the display name, the password change
 * that needs the current password (other sign-ins end, this one stays) and sign out everywhere.
 */
describe.each(STORAGE_INDEPENDENT)('user settings on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  const signInAs = async (email: string, password: string) => {
    const res = await h.call('POST', '/auth/signin', { body: { email, password } });
    return { status: res.status, session: res.body as Session };
  };

  it("changes the user's name, and the session check answers the new one", async () => {
    const { session } = await h.signUp('Ada Lovelace');
    const token = session.id_token;
    const res = await h.call('PUT', '/auth/profile', { token, body: { name: '  Ada King ' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...session.user, name: 'Ada King' });
    const check = await h.call('GET', '/auth/session', { token });
    expect(check.body.user.name).toBe('Ada King');
    const empty = await h.call('PUT', '/auth/profile', { token, body: { name: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('name is required');
  });

  it('changes the password only with the current one; other sign-ins end, this one stays', async () => {
    const { email, password, session } = await h.signUp('Grace Hopper');
    const here = session.id_token;
    const elsewhere = await signInAs(email, password);
    expect(elsewhere.status).toBe(200);

    const wrong = await h.call('POST', '/auth/change-password', {
      token: here,
      body: { current_password: 'not-the-password', password: 'new-password-1' },
    });
    // Never a 401: the session is fine, the field is wrong.
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('current_password: the current password is incorrect');
    const same = await h.call('POST', '/auth/change-password', {
      token: here,
      body: { current_password: password, password },
    });
    expect(same.status).toBe(400);
    expect(same.body.message).toContain('password must differ from the current password');
    const short = await h.call('POST', '/auth/change-password', {
      token: here,
      body: { current_password: password, password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('password must be at least 8 characters');

    const ok = await h.call('POST', '/auth/change-password', {
      token: here,
      body: { current_password: password, password: 'new-password-1' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, message: 'password changed; other sign-ins have ended' });
    expect((await h.call('GET', '/auth/session', { token: here })).status).toBe(200);
    expect(
      (await h.call('GET', '/auth/session', { token: elsewhere.session.id_token })).status,
    ).toBe(403);
    const refresh = await h.call('POST', '/auth/refresh', {
      body: { refresh_token: elsewhere.session.refresh_token },
    });
    expect(refresh.status).toBe(401);
    expect((await signInAs(email, password)).status).toBe(401);
    expect((await signInAs(email, 'new-password-1')).status).toBe(200);
  });

  it('takes at most 10 wrong current passwords in 15 minutes, then refuses even the right one', async () => {
    const { email, password, session } = await h.signUp('Katherine Johnson');
    const other = await h.signUp('Dorothy Vaughan');
    const change = (token: string, current: string) =>
      h.call('POST', '/auth/change-password', {
        token,
        body: { current_password: current, password: 'brand-new-password' },
      });
    for (let i = 0; i < 10; i++) {
      expect((await change(session.id_token, `guess-number-${i}`)).status).toBe(400);
    }
    const locked = await change(session.id_token, password);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('too many wrong current passwords; try again in 15 minutes');
    // Another user is not held back by it.
    expect((await change(other.session.id_token, other.password)).status).toBe(200);
    // Once the window has passed (the id token too: a fresh sign-in), the right one goes through.
    h.clock.now += 15 * 60 * 1000 + 1;
    expect((await change(await h.signIn(email, password), password)).status).toBe(200);
  });

  it('signs out everywhere: every token of the user, and no one else’s', async () => {
    const { email, password, session } = await h.signUp('Alan Turing');
    const other = await h.signUp('Someone Else');
    const second = await signInAs(email, password);
    const res = await h.call('POST', '/auth/signout-everywhere', {
      token: session.id_token,
      body: {},
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, message: 'signed out everywhere' });
    for (const token of [session.id_token, second.session.id_token]) {
      expect((await h.call('GET', '/auth/session', { token })).status).toBe(403);
    }
    const refresh = await h.call('POST', '/auth/refresh', {
      body: { refresh_token: second.session.refresh_token },
    });
    expect(refresh.status).toBe(401);
    // Another user's sign-in is untouched.
    const theirs = await h.call('GET', '/auth/session', { token: other.session.id_token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.user.name).toBe('Someone Else');
    // Without a token none of these calls does anything.
    expect((await h.call('POST', '/auth/signout-everywhere', { body: {} })).status).toBe(401);
    expect((await h.call('PUT', '/auth/profile', { body: { name: 'X' } })).status).toBe(401);
  });
});
