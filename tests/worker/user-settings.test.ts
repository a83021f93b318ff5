import { describe, expect, it } from 'vitest';
import { newUser, serverView, setupWorkspaceSuite } from './support';

/**
 * The user-settings ops of the worker's core (contract/auth.ts): the name reaches every tab's
 * session, the password change leaves this sign-in alone, sign out everywhere ends them all.
 */
const suite = setupWorkspaceSuite({ ingest: false });

describe('user settings', () => {
  it('renames the user: every tab hears the new session', async () => {
    const ws = suite.workspace();
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    const user = newUser();
    await a.api.call('auth.signUp', user);
    const since = b.events.length;
    const state = await a.api.call('auth.updateProfile', { name: 'Ada King' });
    expect(state).toMatchObject({ status: 'signed-in', user: { name: 'Ada King' } });
    // The other tab hears a session with the new name (the sign-up's may come first).
    await b.waitFor(
      (e) =>
        e.type === 'session' &&
        e.session.status === 'signed-in' &&
        e.session.user.name === 'Ada King',
      { since },
    );
    expect(await b.api.call('auth.session', {})).toMatchObject({ user: { name: 'Ada King' } });
  });

  it('changes the password: a wrong current one is refused and the session stays', async () => {
    const ws = suite.workspace();
    const a = await ws.tab('tab-a');
    const user = newUser();
    await a.api.call('auth.signUp', user);
    await expect(
      a.api.call('auth.changePassword', {
        current_password: 'not-it-at-all',
        password: 'another-password',
      }),
    ).rejects.toThrow('current_password: the current password is incorrect');
    expect(await a.api.call('auth.session', {})).toMatchObject({ status: 'signed-in' });
    await a.api.call('auth.changePassword', {
      current_password: user.password,
      password: 'another-password',
    });
    // Still signed in here, and the server answers this session's calls.
    expect(await a.api.call('flags.get', {})).toBeTypeOf('object');
    await expect(serverView(suite.env.baseUrl, user.email, user.password)).rejects.toThrow(
      'sign-in answered 401',
    );
    await serverView(suite.env.baseUrl, user.email, 'another-password');
  });

  it('signs out everywhere: every tab is signed out, and the other device too', async () => {
    const ws = suite.workspace();
    const a = await ws.tab('tab-a');
    const b = await ws.tab('tab-b');
    const user = newUser();
    await a.api.call('auth.signUp', user);
    const other = suite.workspace();
    const c = await other.tab('tab-c');
    await c.api.call('auth.signIn', { email: user.email, password: user.password });
    const since = b.events.length;
    await a.api.call('auth.signOutEverywhere', {});
    expect(await b.waitFor((e) => e.type === 'logout', { since })).toEqual({
      type: 'logout',
      reason: 'signed-out',
      origin_tab: 'tab-a',
    });
    expect(await b.api.call('auth.session', {})).toEqual({ status: 'signed-out' });
    // The other device's token is revoked: its next check ends its session.
    expect(await c.api.call('tab.route', { path: '/feeds/home' })).toEqual({
      status: 'signed-out',
    });
  });
});
