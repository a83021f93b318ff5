import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

const GENERIC_FAILURE = 'Oops! Something Went Wrong. Please Try Again Later :(';

afterEach(() => cleanup());

const fill = (field: string | HTMLElement, value: string) =>
  fireEvent.change(typeof field === 'string' ? screen.getByLabelText(field) : field, {
    target: { value },
  });

describe('sign-in screen', () => {
  it("shows the server's error under the form and enables the button again", async () => {
    await renderShell({
      path: '/auth/signin',
      handlers: {
        'auth.signIn': async () => {
          throw apiError(401, 'unauthorized', 'e-mail or password is incorrect');
        },
      },
    });
    fill(await screen.findByLabelText('E-mail'), 'demo@needl.ai');
    fill('Password', 'not-the-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'e-mail or password is incorrect',
    );
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false);
  });

  it('shows the generic failure text, never a raw message, when the server or network fails', async () => {
    let failure = apiError(500, 'internal', 'database is locked');
    await renderShell({
      path: '/auth/signin',
      handlers: {
        'auth.signIn': async () => {
          throw failure;
        },
      },
    });
    fill(await screen.findByLabelText('E-mail'), 'demo@needl.ai');
    fill('Password', 'demo-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(GENERIC_FAILURE);

    failure = apiError(
      0,
      'network',
      'POST /auth/signin did not reach the server (Failed to fetch)',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false),
    );
    expect(screen.getByRole('alert').textContent).toBe(GENERIC_FAILURE);
  });

  it('moves focus to the heading of the page it lands on', async () => {
    setViewportWidth(1600);
    await renderShell({ path: '/auth/signin', handlers: { 'auth.signIn': () => SIGNED_IN } });
    fill(await screen.findByLabelText('E-mail'), 'demo@needl.ai');
    fill('Password', 'demo-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'My Data' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('signs in and lands on the landing route of the flags', async () => {
    setViewportWidth(1600);
    const { history, calls } = await renderShell({
      path: '/auth/signin',
      handlers: { 'auth.signIn': () => SIGNED_IN },
    });
    fill(await screen.findByLabelText('E-mail'), 'demo@needl.ai');
    fill('Password', 'demo-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(history.location.pathname).toBe('/feeds/home'));
    // The one level-1 heading is the landing page's.
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My Data'),
    );
    expect(calls.find((c) => c.op === 'auth.signIn')?.input).toEqual({
      email: 'demo@needl.ai',
      password: 'demo-password',
    });
  });

  it('goes to the stored redirect after sign-in when one was saved', async () => {
    const { history } = await renderShell({
      path: '/auth/signin',
      handlers: {
        'auth.signIn': () => SIGNED_IN,
        'auth.takeRedirect': () => ({ path: '/search?q=rates' }),
      },
    });
    fill(await screen.findByLabelText('E-mail'), 'demo@needl.ai');
    fill('Password', 'demo-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(history.location.pathname).toBe('/search'));
    expect(history.location.search).toBe('?q=rates');
  });
});

describe('a sign-in in another tab', () => {
  it('moves an open sign-in screen on to the landing route', async () => {
    setViewportWidth(1600);
    const { history, emit } = await renderShell({ path: '/auth/signin' });
    await screen.findByLabelText('E-mail');

    emit({ type: 'session', session: SIGNED_IN });

    await waitFor(() => expect(history.location.pathname).toBe('/feeds/home'));
    // The one level-1 heading is the landing page's.
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My Data'),
    );
  });

  it('leaves the stored redirect to the tab that signed in, also from sign-up', async () => {
    const { history, emit, calls } = await renderShell({
      path: '/auth/platform-access',
      handlers: { 'auth.takeRedirect': () => ({ path: '/search?q=rates' }) },
    });
    await screen.findByLabelText('Name');

    emit({ type: 'session', session: SIGNED_IN });

    await waitFor(() => expect(history.location.pathname).toBe('/feeds/home'));
    expect(calls.some((c) => c.op === 'auth.takeRedirect')).toBe(false);
  });

  it("completes this tab's own sign-in once, though its session event arrives first", async () => {
    const box: { emit?: (event: WorkerEvent) => void } = {};
    const { history, calls, emit } = await renderShell({
      path: '/auth/signin',
      handlers: {
        'auth.signIn': () => {
          // The worker tells every tab, this one too, before the sign-in call answers.
          box.emit?.({ type: 'session', session: SIGNED_IN });
          return SIGNED_IN;
        },
        'auth.takeRedirect': () => ({ path: '/search?q=rates' }),
      },
    });
    box.emit = emit;
    const visited: string[] = [];
    history.subscribe(() => visited.push(history.location.pathname));
    fill(await screen.findByLabelText('E-mail'), 'demo@needl.ai');
    fill('Password', 'demo-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(history.location.pathname).toBe('/search'));
    // A completion started by the session event would have begun first, with fewer steps to
    // its navigation (no takeRedirect): it would be in `visited` before '/search'.
    expect(history.location.search).toBe('?q=rates');
    expect(visited).toEqual(['/search']);
    expect(calls.filter((c) => c.op === 'auth.takeRedirect')).toHaveLength(1);
  });
});

/** The error a field names as its description (aria-describedby), as the form shows it. */
const fieldError = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : null;
};

describe('sign-up screen', () => {
  it('names the field that is wrong and does not call the worker', async () => {
    const { calls } = await renderShell({ path: '/auth/platform-access' });
    fill(await screen.findByLabelText('Name'), 'Ada');
    fill('E-mail', 'not-an-address');
    fill('Password', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    await screen.findByText('E-mail must be a valid e-mail address');
    expect(fieldError('E-mail')).toBe('E-mail must be a valid e-mail address');
    expect(fieldError('Password')).toBe('Password must be at least 8 characters');
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.op === 'auth.signUp')).toBe(false);
  });

  it("shows the server's answer to a duplicate e-mail", async () => {
    await renderShell({
      path: '/auth/platform-access',
      handlers: {
        'auth.signUp': async () => {
          throw apiError(409, 'conflict', 'An account with this e-mail already exists');
        },
      },
    });
    fill(await screen.findByLabelText('Name'), 'Ada');
    fill('E-mail', 'demo@needl.ai');
    fill('Password', 'long-enough-password');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'An account with this e-mail already exists',
    );
  });
});

describe('field issues in the server answer', () => {
  it('show under their fields, named by the labels the form shows', async () => {
    await renderShell({
      path: '/auth/platform-access',
      handlers: {
        'auth.signUp': async () => {
          throw apiError(400, 'bad_request', 'name: name must be at most 120 characters', [
            { path: 'name', message: 'name must be at most 120 characters' },
            { path: 'email', message: 'email is required' },
          ]);
        },
      },
    });
    fill(await screen.findByLabelText('Name'), 'Ada');
    fill('E-mail', 'ada@example.com');
    fill('Password', 'long-enough-password');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    await screen.findByText('Name must be at most 120 characters');
    expect(fieldError('Name')).toBe('Name must be at most 120 characters');
    expect(fieldError('E-mail')).toBe('E-mail is required');
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/name: /)).toBeNull();
  });
});

describe('password screens', () => {
  it('confirms a forgot-password request', async () => {
    const { calls } = await renderShell({
      path: '/auth/forgot-password',
      handlers: { 'auth.forgotPassword': () => ({ ok: true }) },
    });
    fill(await screen.findByLabelText('E-mail'), 'demo@needl.ai');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'If an account exists for demo@needl.ai',
    );
    expect(calls.find((c) => c.op === 'auth.forgotPassword')?.input).toEqual({
      email: 'demo@needl.ai',
    });
  });

  it('resets the password with the token from the link, then offers sign-in', async () => {
    const token = 'a'.repeat(40);
    const { calls } = await renderShell({
      path: `/auth/reset-password?token=${token}`,
      handlers: { 'auth.resetPassword': () => ({ ok: true }) },
    });
    fill(await screen.findByLabelText('New password'), 'brand-new-password');
    fill('Repeat the new password', 'brand-new-password');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));

    expect((await screen.findByText(/Your password has been changed/)).textContent).toMatch(
      /^Your password has been changed/,
    );
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth/signin');
    expect(calls.find((c) => c.op === 'auth.resetPassword')?.input).toEqual({
      token,
      password: 'brand-new-password',
    });
  });

  it("shows an expired token's error from the server", async () => {
    await renderShell({
      path: `/auth/reset-password?token=${'b'.repeat(40)}`,
      handlers: {
        'auth.resetPassword': async () => {
          throw apiError(400, 'bad_request', 'The reset link has expired; ask for a new one');
        },
      },
    });
    fill(await screen.findByLabelText('New password'), 'brand-new-password');
    fill('Repeat the new password', 'brand-new-password');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The reset link has expired; ask for a new one',
    );
  });
});

describe('password screens while signed in', () => {
  it.each(['/auth/forgot-password', `/auth/reset-password?token=${'c'.repeat(40)}`])(
    '%s goes to the landing route, like sign-in and sign-up',
    async (path) => {
      const { history } = await renderShell({ path, session: SIGNED_IN });
      await waitFor(() => expect(history.location.pathname).toBe('/feeds/home'));
      // The one level-1 heading is the landing page's.
      await waitFor(() =>
        expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My Data'),
      );
    },
  );
});

describe('session guard', () => {
  it('sends a signed-out visitor to sign-in and stores where they were going', async () => {
    const { history, calls } = await renderShell({ path: '/search?q=rates' });
    await waitFor(() => expect(history.location.pathname).toBe('/auth/signin'));
    expect(calls.find((c) => c.op === 'auth.storeRedirect')?.input).toEqual({
      path: '/search?q=rates',
    });
  });
});

describe('reset link without a usable token', () => {
  it('says so and offers a new link instead of a form', async () => {
    await renderShell({ path: '/auth/reset-password?token=short' });
    expect((await screen.findByRole('alert')).textContent).toContain('no valid token');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Send a new reset link' }).getAttribute('href')).toBe(
      '/auth/forgot-password',
    );
  });
});
