import type { Variant } from '../contract/tabs';
import type { DomainContext, WorkerDomain } from './registry';
import type { Owner } from './session';

/**
 * What the registry's domains run with at runtime: the session's cancel signal and the refresh
 * of what they cache forever.
 */

export type SessionSignal = {
  /** Aborted when the session current now ends (or the worker closes). */
  current(): AbortSignal;
  /** The session may have changed (signed out, another sign-in): cancel the old one's work. */
  check(): void;
  close(): void;
};

/**
 * One AbortController per session: every read's fetch carries its signal, so a sign-out or a
 * closing worker cancels what was in flight for the session instead of waiting for answers
 * nobody may store.
 */
export function createSessionSignal(owner: () => Owner | null): SessionSignal {
  let closed = false;
  let session: string | null | undefined;
  let controller = new AbortController();
  const sync = () => {
    const id = owner()?.session_id ?? null;
    if (id === session) return;
    if (session !== undefined) controller.abort();
    session = id;
    controller = new AbortController();
    if (closed) controller.abort();
  };
  return {
    current() {
      sync();
      return controller.signal;
    },
    check() {
      if (session !== undefined) sync();
    },
    close() {
      closed = true;
      controller.abort();
    },
  };
}

/** Every domain fetches again what it caches forever (on sign-in, after a feed reset). */
export const refreshDomains = async (
  domains: readonly WorkerDomain[],
  ctx: DomainContext,
  variant: Variant,
) => {
  await Promise.all(domains.map((domain) => domain.refresh?.(ctx, variant)));
};
