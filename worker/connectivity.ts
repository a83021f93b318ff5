import type { Clock, TimerId } from './deps';

/**
 * While offline and a tab is visible: one probe of GET /health every half second, so a write
 * waiting for the server lands within 1 s of its return (issue 18), round trips included.
 */
export const PROBE_INTERVAL_MS = 500;
/** While offline and no tab is visible: one probe every 30 s (nobody is waiting). */
export const PROBE_IDLE_INTERVAL_MS = 30_000;
/** A probe not answered by then is abandoned (a black-holed network never refuses). */
export const PROBE_TIMEOUT_MS = 2_000;

export type Connectivity = {
  /** After every request attempt: whether the server answered (any status). */
  reached(ok: boolean): void;
  /** Something suggests the state moved (the live stream dropped, the network came back): probe now. */
  check(): void;
  /** Probe on the short schedule while `visible` (some tab is visible), the long one else. */
  update(visible: boolean): void;
  /** Whether the worker can reach the server, as far as it knows. */
  online(): boolean;
  stop(): void;
};

/**
 * Whether the server is reachable, from the worker's view, so every tab shows one state. A
 * request that fails for want of a network (the client's `onReachable(false)`) or a live
 * stream that drops is checked with a probe of GET /health at once; only a failed probe makes
 * the state offline, so a single lost request does not flash a banner. While offline, GET
 * /health is probed every 500 ms (at most one probe in flight, each abandoned after 2 s; every
 * 30 s when no tab is visible), and the first answer, the probe's or any other request's, makes
 * the state online again: `changed(true)` then drains the outbox and reconnects the live
 * stream at once, so the server's return is acted on within a second instead of at the next
 * backoff tick.
 */
export function createConnectivity(deps: {
  clock: Clock;
  /** One GET /health: resolves true when the server answered 2xx; aborted by `signal`. */
  probe: (signal: AbortSignal) => Promise<boolean>;
  /** The state moved (told once per move). */
  changed: (online: boolean) => void;
  track: (work: Promise<unknown>) => void;
}): Connectivity {
  let online = true;
  let visible = true;
  let stopped = false;
  let timer: TimerId | null = null;
  let probing: AbortController | null = null;

  const clearTimer = () => {
    if (timer !== null) deps.clock.clearTimeout(timer);
    timer = null;
  };

  const set = (next: boolean) => {
    if (stopped || next === online) return;
    online = next;
    if (online) {
      clearTimer();
      probing?.abort();
      probing = null;
    } else schedule();
    deps.changed(online);
  };

  const schedule = () => {
    if (stopped || online || timer !== null) return;
    timer = deps.clock.setTimeout(
      () => {
        timer = null;
        probe();
      },
      visible ? PROBE_INTERVAL_MS : PROBE_IDLE_INTERVAL_MS,
    );
  };

  function probe() {
    if (stopped || probing) return;
    const controller = new AbortController();
    probing = controller;
    const timeout = deps.clock.setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
    deps.track(
      deps
        .probe(controller.signal)
        .catch(() => false)
        .then((ok) => {
          deps.clock.clearTimeout(timeout);
          if (probing === controller) probing = null;
          // A probe abandoned because the state went online meanwhile says nothing.
          if (controller.signal.aborted && online) return;
          if (ok) set(true);
          else if (online) set(false);
          else schedule();
        }),
    );
  }

  return {
    reached(ok) {
      if (ok) set(true);
      else if (online) probe();
    },
    check: () => probe(),
    update(next) {
      if (next === visible) return;
      visible = next;
      if (online || stopped) return;
      // Made visible while offline: probe at once rather than after the long wait.
      clearTimer();
      if (visible) probe();
      else schedule();
    },
    online: () => online,
    stop() {
      stopped = true;
      clearTimer();
      probing?.abort();
      probing = null;
    },
  };
}
