import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  PUBLIC_URL,
  resetTokenFrom,
  STORAGE_INDEPENDENT,
  type Harness,
} from './harness';

describe.each(STORAGE_INDEPENDENT)('auth on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('signs up with an organisation, preferences and onboarding flags', async () => {
    const { session, email } = await h.signUp('Grace Hopper');
    expect(session.user).toMatchObject({ email, name: 'Grace Hopper' });
    expect(session.expires_in).toBe(900);
    const org = await h.call('GET', '/organizations/self', { token: session.id_token });
    expect(org.body).toMatchObject({ name: "Grace Hopper's workspace", role: 'owner' });
    const prefs = await h.call('GET', '/user/preferences', { token: session.id_token });
    expect(prefs.body).toEqual({ nav_state: null, overlay_widths: {} });
    const flags = await h.call('GET', '/onboarding/flags', { token: session.id_token });
    expect(flags.body).toEqual({ show_attributes_form: true, show_search_modal: true });
  });

  it('names the organisation from the form when given', async () => {
    const { session } = await h.signUp('Ada', { organization: 'Analytical Engines' });
    const org = await h.call('GET', '/organizations/self', { token: session.id_token });
    expect(org.body.name).toBe('Analytical Engines');
  });

  it('refuses a second account for the same e-mail, whatever its case', async () => {
    const { email } = await h.signUp();
    const again = await h.call('POST', '/auth/signup', {
      body: { name: 'Someone', email: email.toUpperCase(), password: 'another-pass' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'conflict',
      message: 'an account with this e-mail already exists',
    });
  });

  it('signs in with the right password and refuses a wrong one or an unknown e-mail', async () => {
    const { email, password } = await h.signUp();
    const ok = await h.call('POST', '/auth/signin', { body: { email, password } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(email);
    for (const body of [
      { email, password: 'wrong-password' },
      { email: 'nobody@example.com', password },
    ]) {
      const bad = await h.call('POST', '/auth/signin', { body });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({
        error: 'unauthorized',
        message: 'e-mail or password is incorrect',
      });
    }
  });

  it('answers the auth poll and counts it', async () => {
    const session = await h.signInDemo();
    const before = h.metrics.authPolls;
    const res = await h.call('GET', '/auth/session', { token: session.id_token });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('demo@needl.ai');
    expect(Date.parse(res.body.expires_at)).toBe(h.clock.now + 900_000);
    expect(h.metrics.authPolls).toBe(before + 1);
  });

  it('gives 401 without a token or with an unknown one', async () => {
    const none = await h.call('GET', '/auth/session');
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('unauthorized');
    const unknown = await h.call('GET', '/feature/config', { token: 'not-a-real-token' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('unauthorized');
  });

  it('gives 403 for an expired id token, and the refresh token gets a working pair', async () => {
    const { session } = await h.signUp();
    h.clock.now += 901_000;
    const expired = await h.call('GET', '/auth/session', { token: session.id_token });
    expect(expired.status).toBe(403);
    expect(expired.body).toEqual({
      error: 'token_expired',
      message: 'id token has expired; refresh it',
    });
    const refreshed = await h.call('POST', '/auth/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(session.refresh_token);
    const ok = await h.call('GET', '/auth/session', { token: refreshed.body.id_token });
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(session.user.id);
  });

  // The worker sends an idempotency key with every mutation; the revocation must survive the
  // rollback of the failing request either way.
  it.each([
    ['without', undefined],
    ['with', 'refresh-key'],
  ])(
    'rotates refresh tokens: a reused one (%s a key) is refused and ends that sign-in',
    async (_, keyPrefix) => {
      const key = () => (keyPrefix ? `${keyPrefix}-${Math.random()}` : undefined);
      const { session } = await h.signUp();
      const first = await h.call('POST', '/auth/refresh', {
        key: key(),
        body: { refresh_token: session.refresh_token },
      });
      expect(first.status).toBe(200);
      const reuse = await h.call('POST', '/auth/refresh', {
        key: key(),
        body: { refresh_token: session.refresh_token },
      });
      expect(reuse.status).toBe(401);
      expect(reuse.body.message).toBe('refresh token was already used; sign in again');
      // The pair handed out by the first refresh went with it.
      const after = await h.call('POST', '/auth/refresh', {
        body: { refresh_token: first.body.refresh_token },
      });
      expect(after.status).toBe(401);
      const poll = await h.call('GET', '/auth/session', { token: first.body.id_token });
      expect(poll.status).toBe(403);
    },
  );

  it('signs out: the id token and the refresh token stop working', async () => {
    const { session } = await h.signUp();
    const out = await h.call('POST', '/auth/signout', {
      token: session.id_token,
      body: { refresh_token: session.refresh_token },
    });
    expect(out.status).toBe(200);
    expect(out.body.ok).toBe(true);
    const poll = await h.call('GET', '/auth/session', { token: session.id_token });
    expect(poll.status).toBe(403);
    const refresh = await h.call('POST', '/auth/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refresh.status).toBe(401);
  });

  it('resets a forgotten password through the mailed link', async () => {
    const { email, session } = await h.signUp();
    // With a key, the mail leaves only once the request's transaction has committed.
    const forgot = await h.call('POST', '/auth/forgot-password', {
      body: { email },
      key: 'forgot-key',
    });
    expect(forgot.status).toBe(200);
    const mail = h.mail.sent.at(-1)!;
    expect(mail.to).toBe(email);
    expect(mail.text).toContain(`${PUBLIC_URL}/auth/reset-password?token=`);
    const token = resetTokenFrom(mail.text);

    const reset = await h.call('POST', '/auth/reset-password', {
      body: { token, password: 'a-new-password' },
    });
    expect(reset.status).toBe(200);
    const oldPassword = await h.call('POST', '/auth/signin', {
      body: { email, password: 'correct-horse' },
    });
    expect(oldPassword.status).toBe(401);
    const newPassword = await h.call('POST', '/auth/signin', {
      body: { email, password: 'a-new-password' },
    });
    expect(newPassword.status).toBe(200);
    // Every earlier session ends with the reset.
    const poll = await h.call('GET', '/auth/session', { token: session.id_token });
    expect(poll.status).toBe(403);

    const again = await h.call('POST', '/auth/reset-password', {
      body: { token, password: 'third-password' },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('reset token is invalid or has already been used');
  });

  it('answers forgot-password the same for an unknown e-mail and sends nothing', async () => {
    const { email } = await h.signUp();
    const known = await h.call('POST', '/auth/forgot-password', { body: { email } });
    const sent = h.mail.sent.length;
    const unknown = await h.call('POST', '/auth/forgot-password', {
      body: { email: 'no-such-user@example.com' },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(h.mail.sent.length).toBe(sent);
  });

  it('refuses an expired reset token with a clear message', async () => {
    const { email } = await h.signUp();
    await h.call('POST', '/auth/forgot-password', { body: { email } });
    const token = resetTokenFrom(h.mail.sent.at(-1)!.text);
    h.clock.now += 3601_000;
    const res = await h.call('POST', '/auth/reset-password', {
      body: { token, password: 'a-new-password' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'bad_request',
      message: 'reset token has expired; request a new one',
    });
  });

  it('refuses an unknown reset token', async () => {
    const res = await h.call('POST', '/auth/reset-password', {
      body: { token: 'x'.repeat(43), password: 'a-new-password' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('reset token is invalid or has already been used');
  });

  it('stores tokens only as hashes, replay records included', async () => {
    const { email, password } = await h.signUp();
    const signIn = await h.call('POST', '/auth/signin', {
      body: { email, password },
      key: 'sign-in-key-1',
    });
    expect(signIn.status).toBe(200);
    await h.call('POST', '/auth/forgot-password', { body: { email } });
    const resetToken = resetTokenFrom(h.mail.sent.at(-1)!.text);
    const secrets = [signIn.body.id_token, signIn.body.refresh_token, resetToken, 'sign-in-key-1'];

    const tables = [
      'id_tokens',
      'refresh_tokens',
      'password_resets',
      'idempotency_records',
      'users',
    ] as const;
    const dump = JSON.stringify(
      await Promise.all(tables.map((t) => h.db.selectFrom(t).selectAll().execute())),
    );
    for (const secret of secrets) expect(dump).not.toContain(secret);
    expect(dump).not.toContain(password);
  });
});
