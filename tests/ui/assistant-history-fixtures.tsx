import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { SessionSummary, SessionType } from '../../contract/assistant';
import { AssistantHistoryPanel } from '../../src/features/assistant/history/history-panel';
import { WorkspaceProvider } from '../../src/shell-context';
import { ShellToaster } from '../../src/shell/toasts';
import { createShellState } from '../../src/state/shell-state';
import { createWorkspaceClient } from '../../src/workspace-client';
import { SIGNED_IN, createFakeWorkspace } from './shell-fake-workspace';

type Handlers = NonNullable<Parameters<typeof createFakeWorkspace>[0]>;

/** A session as ask.sessions lists it. `updated` is a local time, written as its parts. */
export function session(
  id: string,
  title: string,
  type: SessionType,
  updated: Date,
  matched: string | null = null,
): SessionSummary {
  return {
    id,
    sessionId: id,
    title,
    type,
    updated_at: updated.toISOString(),
    created_at: updated.toISOString(),
    metadata: {
      type,
      board_id: null,
      channel_id: null,
      document_id: [],
      source: null,
      report_id: null,
    },
    matched_sentence: matched,
  };
}

/** 15 March 2024, 10:00 local time: the "now" of the panel tests. */
export const NOW = new Date(2024, 2, 15, 10, 0);
export const HISTORY_FLAGS = { my_data: true, search: true, ask_needl_history: true };

/**
 * Renders `screen` inside the shell's services (a fake worker, real shell state with `flags`)
 * and a memory router at `path` with /ask-needl/full and /ask-needl/history as routes, plus the
 * toast host. The client is started, so events the test emits reach the screen.
 */
export async function renderWithWorkspace(opts: {
  handlers?: Handlers;
  flags?: Record<string, boolean>;
  path?: string;
  screen: () => ReactElement;
}) {
  const fake = createFakeWorkspace(opts.handlers ?? {}, SIGNED_IN);
  const client = createWorkspaceClient({ api: fake.api, tabId: 'tab-1' });
  await client.start({ variant: 'main', path: opts.path ?? '/ask-needl/full' });
  const state = createShellState({
    client,
    toast: () => {},
    isOnAuthPath: () => false,
    goToSignedOutRoute: () => {},
    reload: () => {},
  });
  state.$flags.value = opts.flags ?? HISTORY_FLAGS;

  const root = createRootRoute({ component: Outlet });
  const routes = ['/ask-needl/full', '/ask-needl/history', '/feeds/home'].map((path) =>
    createRoute({ getParentRoute: () => root, path, component: opts.screen }),
  );
  const history = createMemoryHistory({ initialEntries: [opts.path ?? '/ask-needl/full'] });
  const router = createRouter({ routeTree: root.addChildren(routes), history });
  const view = render(
    <WorkspaceProvider services={{ client, state, product: 'needl' }}>
      <RouterProvider router={router} />
      <ShellToaster />
    </WorkspaceProvider>,
  );
  await act(async () => {
    await router.load();
  });
  return { ...fake, ...view, router, state };
}

/** The panel beside a chat whose active session is `active`; records what it asks the chat. */
export async function renderPanel(opts: {
  sessions: SessionSummary[] | (() => SessionSummary[]);
  active?: string | null;
  handlers?: Handlers;
  flags?: Record<string, boolean>;
}) {
  const selected: string[] = [];
  let newChats = 0;
  const list = opts.sessions;
  const rendered = await renderWithWorkspace({
    flags: opts.flags,
    handlers: {
      'ask.sessions': () => ({
        sessions: typeof list === 'function' ? list() : list,
        fresh: true,
      }),
      ...opts.handlers,
    },
    screen: () => (
      <AssistantHistoryPanel
        activeSessionId={opts.active ?? null}
        onSelect={(id) => selected.push(id)}
        onNewChat={() => {
          newChats += 1;
        }}
      />
    ),
  });
  return { ...rendered, selected, newChats: () => newChats };
}

/** Calls of one op, in order. */
export const callsOf = (calls: Array<{ op: string; input: unknown }>, op: string) =>
  calls.filter((c) => c.op === op).map((c) => c.input);
