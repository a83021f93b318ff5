import { afterEach } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import type { HeadlessTab, HeadlessWorkspace } from '../../worker/headless';
import {
  createScriptedFetch,
  type RecordedRequest,
  type ScriptedReply,
} from '../../worker/testing';
import { setupWorkspaceSuite } from './support';

/** The session tests' shared setup: a server whose clock a test moves past a token's life. */

const TTL_SECONDS = 60;

/**
 * The suite's server with 60 s id tokens, and `expireTokens()`, which moves the server's clock
 * past their lifetime for the rest of the test. Call at the top level of a test file.
 */
export function setupSessionSuite() {
  const server = { skewMs: 0 };
  // Registered before the suite's hooks so that it runs after them (vitest runs after-hooks in
  // reverse): the workspaces close while the server's clock is still the test's.
  afterEach(() => {
    server.skewMs = 0;
  });
  const { workspace } = setupWorkspaceSuite({
    idTokenTtlSeconds: TTL_SECONDS,
    now: () => Date.now() + server.skewMs,
  });
  const expireTokens = () => {
    server.skewMs = (TTL_SECONDS + 5) * 1000;
  };
  return { workspace, expireTokens };
}

export const isLogout = (e: WorkerEvent) => e.type === 'logout';
export const logouts = (tab: HeadlessTab) => tab.events.filter(isLogout);

/**
 * Waits until every event the worker sent `tabs` so far has arrived: a marker event (another
 * tab's OAuth reload, which reaches every other tab) sent after them has. A test then reads
 * what did not happen off `events` without sleeping.
 */
export async function delivered(ws: HeadlessWorkspace, ...tabs: HeadlessTab[]) {
  const since = tabs.map((tab) => tab.events.length);
  const marker = await ws.tab();
  await marker.api.call('auth.oauthComplete', {});
  await Promise.all(
    tabs.map((tab, i) => tab.waitFor((e) => e.type === 'reload', { since: since[i] })),
  );
  marker.close();
}

/** A call still pending once a later call on the same port was answered. */
export const pending = (call: Promise<unknown>) => {
  const state = { settled: false };
  call.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
};

const userNamed = (name: string) => ({
  id: `user-${name}`,
  email: `${name}@example.com`,
  name,
  organization_id: 'o1',
  created_at: '2024-01-01T00:00:00.000Z',
});
export const sessionOf = (name: string, round = 1) => ({
  id_token: `${name}-id-${round}`,
  refresh_token: `${name}-refresh-${round}`.padEnd(24, '.'),
  expires_in: 60,
  user: userNamed(name),
});
export const ORG = { id: 'o1', name: 'Research', role: 'owner', permissions: [], members_count: 1 };
export const EXPIRED: ScriptedReply = {
  status: 403,
  body: { error: 'token_expired', message: 'id token has expired; refresh it' },
};
export const pathOf = (url: string) => new URL(url).pathname.replace(/^\/api/, '');

/**
 * A scripted server where ada signs in: `answer` picks the replies a test is about (by path),
 * the rest get harmless defaults.
 */
export function scriptedServer(
  answer: (path: string, request: RecordedRequest) => ScriptedReply | null,
) {
  return createScriptedFetch((request) => {
    const path = pathOf(request.url);
    const special = answer(path, request);
    if (special) return special;
    if (path === '/auth/signin') return { status: 200, body: sessionOf('ada') };
    if (path === '/feature/config') return { status: 200, body: { results: {} } };
    if (path === '/user/preferences') {
      return { status: 200, body: { nav_state: null, overlay_widths: {} } };
    }
    if (path === '/organizations/self') return { status: 200, body: ORG };
    return {
      status: 200,
      body: { changes: [], cursor: 0, has_more: false, reset: false, ok: true },
    };
  });
}
export const ADA = { email: 'ada@example.com', password: 'whatever' };
