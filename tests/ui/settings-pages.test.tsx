import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEMO_USER,
  SIGNED_IN,
  apiError,
  renderShell,
  setViewportWidth,
} from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(() => cleanup());

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the settings hub', () => {
  it('links every settings page that works, and no placeholder', async () => {
    await renderShell({ path: '/settings', session: SIGNED_IN });
    const list = await screen.findByRole('list', { name: 'Settings pages' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['User Settings', '/settings/user-settings'],
      ['Feed Manager', '/settings/feeds/root'],
      ['Ingestion Status', '/settings/feeds'],
      ['Tags Manager', '/settings/tags'],
      ['Contacts', '/settings/contacts'],
    ]);
    expect(screen.queryByText('Not available yet')).toBeNull();
    // The top bar's Settings link now leads here.
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
  });
});

describe('user settings', () => {
  it('saves the name through the worker', async () => {
    const view = await renderShell({
      path: '/settings/user-settings',
      session: SIGNED_IN,
      handlers: {
        'auth.updateProfile': ({ name }) => ({
          status: 'signed-in',
          user: { ...DEMO_USER, name },
        }),
      },
    });
    const form = await screen.findByRole('form', { name: 'Your name' });
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Demo User');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: '  Ada King ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Name saved.')).toBeTruthy();
    expect(view.calls.filter((c) => c.op === 'auth.updateProfile').map((c) => c.input)).toEqual([
      { name: 'Ada King' },
    ]);
  });

  it('checks the new password here, and shows the server’s refusal of the current one', async () => {
    const view = await renderShell({
      path: '/settings/user-settings',
      session: SIGNED_IN,
      handlers: {
        'auth.changePassword': () => {
          throw apiError(400, 'bad_request', 'current_password: the current password is incorrect');
        },
      },
    });
    const form = await screen.findByRole('form', { name: 'Change password' });
    type('Current password', 'old-password');
    type('New password', 'new-password-1');
    type('Confirm new password', 'new-password-2');
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getByRole('alert').textContent).toBe('The new passwords do not match.');
    expect(view.calls.some((c) => c.op === 'auth.changePassword')).toBe(false);

    type('Confirm new password', 'new-password-1');
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(within(form).getByRole('alert').textContent).toBe(
        'current_password: the current password is incorrect',
      ),
    );
    expect(view.calls.filter((c) => c.op === 'auth.changePassword').map((c) => c.input)).toEqual([
      { current_password: 'old-password', password: 'new-password-1' },
    ]);
  });

  it('signs out everywhere after asking', async () => {
    const view = await renderShell({
      path: '/settings/user-settings',
      session: SIGNED_IN,
      handlers: { 'auth.signOutEverywhere': () => undefined },
    });
    const section = await screen.findByRole('region', { name: 'Sign out everywhere' });
    fireEvent.click(within(section).getByRole('button', { name: 'Sign out everywhere' }));
    expect(view.calls.some((c) => c.op === 'auth.signOutEverywhere')).toBe(false);
    fireEvent.click(within(section).getByRole('button', { name: 'Yes, sign out everywhere' }));
    await waitFor(() =>
      expect(view.calls.filter((c) => c.op === 'auth.signOutEverywhere')).toHaveLength(1),
    );
  });
});
