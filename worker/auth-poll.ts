import type { Clock, LockManagerLike } from './deps';

export const AUTH_POLL_LOCK = 'auth-poll-leader';

export type AuthPoll = {
  /** Poll while `active` (signed in and some tab visible); stop otherwise. */
  update(active: boolean): void;
  /** Whether this worker holds the leader lock and has its timer running. */
  leading(): boolean;
  stop(): void;
};

/**
 * The auth poll timer: one for the whole worker, however many tabs are visible. The Web Lock
 * 'auth-poll-leader' makes it one per browser even where each tab has its own dedicated
 * worker: only the lock holder polls, the others queue and take over when it stops.
 */
export function createAuthPoll(deps: {
  clock: Clock;
  locks: LockManagerLike;
  intervalMs: number;
  tick: () => Promise<unknown>;
  /** Background work the workspace waits for in `idle()`. */
  track: (work: Promise<unknown>) => void;
}): AuthPoll {
  let active = false;
  let generation = 0;
  let release: (() => void) | null = null;
  let waiting: AbortController | null = null;
  let timer: unknown = null;

  const schedule = () => {
    timer = deps.clock.setTimeout(fire, deps.intervalMs);
  };

  function fire() {
    timer = null;
    if (!release) return;
    schedule();
    deps.track(deps.tick());
  }

  // Runs while the lock is held; the lock goes when the returned promise resolves.
  const hold = (gen: number) => {
    if (gen !== generation || !active || release) return undefined;
    return new Promise<void>((resolve) => {
      release = resolve;
      schedule();
    });
  };

  const queue = (gen: number) => {
    const controller = new AbortController();
    waiting = controller;
    deps.locks
      .request(AUTH_POLL_LOCK, { signal: controller.signal }, () => {
        if (waiting === controller) waiting = null;
        return hold(gen);
      })
      .catch(() => {
        // Aborted: this worker stopped wanting to poll while another one led.
      });
  };

  const acquire = (gen: number) => {
    // Try at once (a lone worker starts its timer without waiting); queue behind the leader else.
    const granted = new Promise<void>((done) => {
      deps.locks
        .request(AUTH_POLL_LOCK, { ifAvailable: true }, (lock) => {
          done();
          if (lock) return hold(gen);
          if (gen === generation && active && !release) queue(gen);
          return undefined;
        })
        .catch(() => done());
    });
    deps.track(granted);
  };

  const resign = () => {
    waiting?.abort();
    waiting = null;
    if (timer !== null) deps.clock.clearTimeout(timer);
    timer = null;
    release?.();
    release = null;
  };

  return {
    update(next) {
      if (next === active) return;
      active = next;
      generation += 1;
      if (active) acquire(generation);
      else resign();
    },
    leading: () => release !== null,
    stop() {
      active = false;
      generation += 1;
      resign();
    },
  };
}
