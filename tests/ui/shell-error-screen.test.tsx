import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserFacingError } from '../../src/lib/user-message';
import { ErrorScreen, RouterError } from '../../src/screens/error-screen';
import { WorkspaceProvider } from '../../src/shell-context';
import type { ShellState } from '../../src/state/shell-state';
import { createWorkspaceClient } from '../../src/workspace-client';
import { SIGNED_IN, createFakeWorkspace, renderShell } from './shell-fake-workspace';
import { createLazyPageLoader, isModuleLoadError } from '../../src/shell/lazy-page';
import { ErrorBoundaryProbe } from './shell-error-probe';
import { ShellErrorBoundary } from '../../src/shell/error-boundary';

afterEach(() => cleanup());

const GENERIC_FAILURE = 'Oops! Something Went Wrong. Please Try Again Later :(';
const MODULE_FAILED =
  'A part of the app could not be loaded. Check your connection, then reload the page.';

describe('generic error screen', () => {
  it('shows "Something went wrong", the message, the support contact and a Go back button', () => {
    const backs: number[] = [];
    render(
      <ErrorScreen
        error={new UserFacingError('Feed "rates" could not be read')}
        onBack={() => backs.push(1)}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText('Feed "rates" could not be read')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'support@needl.ai' }).getAttribute('href')).toBe(
      'mailto:support@needl.ai',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    expect(backs).toHaveLength(1);
  });

  it("shows the spec's generic text for a fault whose own text is not for users", () => {
    render(<ErrorScreen error={new TypeError("Cannot read properties of undefined ('id')")} />);
    expect(screen.getByText(GENERIC_FAILURE)).toBeTruthy();
    expect(screen.queryByText(/Cannot read properties/)).toBeNull();
  });
});

describe('a malformed address', () => {
  it('shows the error screen, not a crash or a blank page', async () => {
    await renderShell({ path: '/%E0%A4%A', session: SIGNED_IN });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText('This address is not valid. Check the link, or go back.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go back' })).toBeTruthy();
  });
});

describe('a route error', () => {
  it('shows the error screen and logs the error to the backend', async () => {
    const fake = createFakeWorkspace();
    const client = createWorkspaceClient({ api: fake.api, tabId: 'tab-1' });
    // The error screen reads only the client; shell state is not involved.
    const services = { client, state: {} as ShellState, product: 'needl' };
    render(
      <WorkspaceProvider services={services}>
        <RouterError error={new Error('Feed "rates" could not be read')} />
      </WorkspaceProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    await waitFor(() =>
      expect(fake.calls.find((c) => c.op === 'log.debug')?.input).toMatchObject({
        logData: { event: 'route_error', message: 'Feed "rates" could not be read' },
      }),
    );
  });
});

describe('a lazily loaded screen whose module fails to load', () => {
  const memory = () => {
    const items = new Map<string, string>();
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
  };
  const chunkError = new TypeError(
    'Failed to fetch dynamically imported module: /assets/sign-in-page.js',
  );

  it('recognises module load failures, and only those', () => {
    expect(isModuleLoadError(chunkError)).toBe(true);
    expect(isModuleLoadError(new Error('Importing a module script failed.'))).toBe(true);
    expect(isModuleLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });

  it('reloads the page once, then shows the error instead of reloading again', async () => {
    const storage = memory();
    const reloads: number[] = [];
    const loader = createLazyPageLoader({ storage, reload: () => reloads.push(1) });

    const First = loader(() => Promise.reject(chunkError));
    render(<First />);
    await screen.findByText('Loading…');
    await Promise.resolve();
    expect(reloads).toHaveLength(1);
    cleanup();

    // After the reload the module still fails: no second reload, the error surfaces.
    const errors: unknown[] = [];
    const Second = loader(() => Promise.reject(chunkError));
    // React reports the caught error on the console; the assertion below is what matters.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundaryProbe onError={(e) => errors.push(e)}>
        <Second />
      </ErrorBoundaryProbe>,
    );
    await screen.findByText('error caught');
    expect(reloads).toHaveLength(1);
    expect(errors[0]).toBe(chunkError);
    quiet.mockRestore();
  });

  it('after the one reload, a second failure shows the generic error screen in plain words', async () => {
    const storage = memory();
    storage.setItem('shell:lazy-reload', '1');
    const reloads: number[] = [];
    const loader = createLazyPageLoader({ storage, reload: () => reloads.push(1) });
    const Failing = loader(() => Promise.reject(chunkError));
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ShellErrorBoundary>
        <Failing />
      </ShellErrorBoundary>,
    );
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText(MODULE_FAILED)).toBeTruthy();
    expect(screen.queryByText(/dynamically imported module/)).toBeNull();
    expect(reloads).toHaveLength(0);
    quiet.mockRestore();
  });
});

describe('an error that escapes the router', () => {
  it('shows the error screen, and "Go back" shows the page gone back to', async () => {
    window.history.pushState({}, '', '/feeds/home');
    window.history.pushState({}, '', '/broken');
    function Page() {
      if (window.location.pathname === '/broken') {
        throw new UserFacingError('The shell could not start');
      }
      return <p>The page before</p>;
    }
    // React reports the caught error on the console; what the user sees is what matters.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ShellErrorBoundary>
        <Page />
      </ShellErrorBoundary>,
    );
    expect(screen.getByText('The shell could not start')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    expect(await screen.findByText('The page before')).toBeTruthy();
    expect(window.location.pathname).toBe('/feeds/home');
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
    quiet.mockRestore();
  });
});
