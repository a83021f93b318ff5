import { createMemoryHistory } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import { StrictMode } from 'react';
import type {
  OpInput,
  OpName,
  OpOutput,
  SessionState,
  WorkerEvent,
  WorkspaceApi,
} from '../../contract/worker-api';
import { ShellApp, startShell } from '../../src/boot';
import { createWorkspaceClient } from '../../src/workspace-client';

type Handlers = { [K in OpName]?: (input: OpInput<K>) => OpOutput<K> | Promise<OpOutput<K>> };

export const DEMO_USER = {
  id: 'u1',
  email: 'demo@needl.ai',
  name: 'Demo User',
  organization_id: 'o1',
  created_at: '2024-01-01T00:00:00.000Z',
};

export const SIGNED_IN: SessionState = { status: 'signed-in', user: DEMO_USER };
export const SIGNED_OUT: SessionState = { status: 'signed-out' };

/**
 * A WorkspaceApi double: answers ops from handlers (with defaults for a signed-out tab), records
 * every call, and lets a test emit worker events to the subscribed tab.
 */
export function createFakeWorkspace(handlers: Handlers = {}, session: SessionState = SIGNED_OUT) {
  const calls: Array<{ op: OpName; input: unknown }> = [];
  const listeners: Array<(event: WorkerEvent) => void> = [];
  // The worker's session: signing out ends it, so later route checks answer signed-out.
  let current = session;
  const defaults: Handlers = {
    'tab.hello': () => current,
    'tab.route': () => current,
    'tab.visibility': () => undefined,
    'tab.bye': () => undefined,
    'tab.online': () => undefined,
    'auth.storeRedirect': () => undefined,
    'auth.takeRedirect': () => ({ path: null }),
    'flags.get': () => ({ my_data: true, search: true, ask_needl_copilot: true }),
    'preferences.get': () => ({ nav_state: null, overlay_widths: {} }),
    'preferences.update': (patch) => ({
      nav_state: patch.nav_state ?? null,
      overlay_widths: patch.overlay_widths ?? {},
    }),
    'log.debug': () => undefined,
    'auth.signOut': () => {
      current = SIGNED_OUT;
    },
    // A workspace that follows nothing yet: empty feeds, no boards, no sources.
    'feed.tabs': () => [],
    'feed.window': ({ offset }) => ({ offset, rows: [], total: 0, complete: true }),
    'boards.list': () => [],
    'sources.list': () => [],
    // No tags and no bookmarks yet (cards and the preview ask for each document's tags).
    'tags.list': () => [],
    'tags.ofDocuments': ({ deeplinks }) => Object.fromEntries(deeplinks.map((d) => [d, []])),
    'tags.documents': () => [],
    'tags.window': ({ offset }) => ({ offset, rows: [], total: 0 }),
    // No notebooks yet.
    'notebooks.list': () => [],
    'notes.list': () => [],
    'notifications.unread': () => ({ unread: 0 }),
  };
  const api: WorkspaceApi = {
    async call<K extends OpName>(op: K, input: OpInput<K>): Promise<OpOutput<K>> {
      calls.push({ op, input });
      const handler = (handlers[op] ?? defaults[op]) as
        ((input: OpInput<K>) => OpOutput<K> | Promise<OpOutput<K>>) | undefined;
      if (!handler) throw new Error(`fake workspace: no handler for ${op}`);
      return handler(input);
    },
    async subscribe(listener) {
      listeners.push(listener);
    },
  };
  const emit = (event: WorkerEvent) =>
    act(() => {
      for (const listener of listeners) listener(event);
    });
  return { api, calls, emit };
}

/**
 * An error as a failed worker call reaches the tab: comlink rethrows the worker's ApiError as an
 * Error carrying its status, code and field issues.
 */
export function apiError(
  status: number,
  code: string,
  message: string,
  issues?: Array<{ path: string; message: string }>,
): Error {
  return Object.assign(new Error(message), { name: 'ApiError', status, code, issues });
}

/** Starts the real shell on a fake workspace at `path` and renders it. */
export async function renderShell(opts: {
  path: string;
  session?: SessionState;
  handlers?: Handlers;
  tabId?: string;
  /** Render under React's StrictMode, as the browser entry (src/main.tsx) does. */
  strict?: boolean;
}) {
  const fake = createFakeWorkspace(opts.handlers, opts.session);
  const client = createWorkspaceClient({ api: fake.api, tabId: opts.tabId ?? 'tab-1' });
  const history = createMemoryHistory({ initialEntries: [opts.path] });
  const reloads: number[] = [];
  const reload = () => reloads.push(Date.now());
  const storage = new Map<string, string>();
  const shell = await startShell({
    client,
    product: 'needl',
    history,
    reload,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
  });
  const app = <ShellApp shell={shell} reload={reload} />;
  const view = render(opts.strict ? <StrictMode>{app}</StrictMode> : app);
  return { ...fake, ...view, shell, history, reloads };
}

/** The viewport the shell sees (jsdom's default is tablet-sized). */
export function setViewportWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
}
