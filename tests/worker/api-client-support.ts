import { createApiClient, type AuthHooks } from '../../worker/api-client';
import {
  createManualClock,
  createScriptedFetch,
  type RecordedRequest,
  type ScriptedReply,
} from '../../worker/testing';

/** The API client over a scripted server, for the api-client tests. */

export const ORG = {
  id: 'o1',
  name: 'Demo Research',
  role: 'owner',
  permissions: [],
  members_count: 1,
};
export const PREFS = { nav_state: 'opened', overlay_widths: {} };
export const ok = (body: unknown): ScriptedReply => ({ status: 200, body });
export const fail = (status: number, error: string, message: string): ScriptedReply => ({
  status,
  body: { error, message },
});
export const offline: ScriptedReply = { networkError: true };

/**
 * A client over a scripted server, its requests stamped with the clock the client sleeps on
 * (which starts at 1 000). Its session hands out token-1, then token-2, ... on each refresh.
 */
export function setup(script: ScriptedReply[], auth: Partial<AuthHooks> = {}) {
  const clock = createManualClock(1_000);
  const { fetch, requests } = createScriptedFetch(script, clock);
  const calls = { missing: 0, unauthorized: [] as string[], refresh: [] as string[] };
  let token: string | null = 'token-1';
  let n = 1;
  const client = createApiClient({
    fetch,
    clock,
    baseUrl: 'http://api.test/api',
    product: 'needl',
    randomId: () => `key-${n++}`,
    auth: {
      token: () => token,
      async refresh(stale) {
        calls.refresh.push(stale);
        token = `token-${calls.refresh.length + 1}`;
        return token;
      },
      missing: () => {
        calls.missing += 1;
      },
      unauthorized: (t) => calls.unauthorized.push(t),
      ...auth,
    },
  });
  const clearToken = () => {
    token = null;
  };
  return { client, clock, requests, calls, clearToken };
}

/** Requests to `path` (relative to the API base). */
export const to = (path: string) => (r: RecordedRequest) =>
  new URL(r.url).pathname === `/api${path}`;

/** The debug logs sent with `event`. */
export const logsOf = (requests: RecordedRequest[], event: string) =>
  requests.filter(
    (r) => to('/debug-logs')(r) && JSON.parse(r.body ?? '{}').logData?.event === event,
  );
