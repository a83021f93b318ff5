import * as Comlink from 'comlink';
import { messageOf, type AuthHooks } from './api-client';
import type { SessionManager } from './session';

/**
 * The small pieces create-workspace.ts wires with: late-bound calls (so each part is made
 * after what it needs, with no closure over a name declared later), the client's view of the
 * session, and how errors cross comlink.
 */

/**
 * A callback whose target is set once, after the parts it calls exist: the parts are made in
 * order, each from what was made before it, and the few calls that go back up (a tab change
 * to the auth poll, the client to the session) go through one of these.
 */
export function later<A extends unknown[], R>(fallback: R) {
  let target: ((...args: A) => R) | null = null;
  return {
    // Nothing calls before createWorkspace returns: every caller is asynchronous.
    call: (...args: A): R => (target ? target(...args) : fallback),
    set(fn: (...args: A) => R) {
      target = fn;
    },
  };
}

/**
 * Background work (polls, pulls, sends): tracked so `idle` can wait for it and a failure is
 * warned about, never thrown at nobody.
 */
export function createBackground(warn: (message: string) => void) {
  const running = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked: Promise<unknown> = work
      .catch((error) => warn(`workspace: background work failed: ${messageOf(error)}`))
      .finally(() => running.delete(tracked));
    running.add(tracked);
  };
  const idle = async () => {
    while (running.size > 0) await Promise.all([...running]);
  };
  return { track, idle };
}

/** The client's view of the session, bound once the session exists (it needs the client). */
export function createAuthRelay() {
  let session: SessionManager | null = null;
  const bound = () => {
    if (!session) throw new Error('workspace: the session is not made yet');
    return session;
  };
  const hooks: AuthHooks = {
    token: () => session?.token() ?? null,
    refresh: (stale, label) => bound().refresh(stale, label),
    missing: (label) => bound().missing(label),
    unauthorized: (token) => bound().unauthorized(token),
    expired: (token) => session?.expired(token) ?? false,
    keepLog: (logData) => bound().keepLog(logData),
  };
  return { hooks, attach: (made: SessionManager) => void (session = made) };
}

let errorTransferInstalled = false;

/**
 * comlink sends a thrown Error as message, name and stack only; an ApiError's status, code
 * and field issues matter to the tab, so they travel too (comlink's own receiving side copies
 * every field onto the Error it rethrows).
 */
export function installErrorTransfer() {
  if (errorTransferInstalled) return;
  errorTransferInstalled = true;
  const original = Comlink.transferHandlers.get('throw');
  if (!original) return;
  Comlink.transferHandlers.set('throw', {
    canHandle: original.canHandle,
    serialize(thrown) {
      const { value } = thrown as { value: unknown };
      if (!(value instanceof Error)) return original.serialize(thrown);
      const { message, name, stack } = value;
      const extra = { ...(value as unknown as Record<string, unknown>) };
      return [{ isError: true, value: { ...extra, message, name, stack } }, []];
    },
    deserialize: original.deserialize,
  });
}
