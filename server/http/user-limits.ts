import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { endpointPath, endpoints, type EndpointName } from '../../contract/endpoints';
import type { AppDeps, AppEnv } from '../context';
import { rateLimited } from '../errors';

/**
 * Per-user limits on what costs the server (or, with a model configured, money): answers
 * streaming at once and questions per minute, follows per hour, live connections, uploads in
 * flight. Past one, the request is answered 429 `rate_limited` with Retry-After and a message
 * for the user; nothing else of theirs, and nobody else, is held back.
 *
 * Normal use never reaches them: the worker (one per browser profile, shared by every tab)
 * holds one live connection and streams only the questions its tabs ask; an outbox drain or
 * a second device stays far inside. They are counted in this server process's memory (a
 * restart forgets them; N servers behind a balancer allow up to N times as much), which is
 * what they are for: no single user can take a server's capacity.
 *
 * A slot (concurrent asks, live connections, uploads) is taken before the handler runs and
 * given back when the answer ends: at once for an ordinary answer or an error, and for an
 * event stream when it finishes, fails or the client goes away (the body is cancelled or the
 * request aborts), whichever comes first.
 */
export type UserLimits = {
  /** Answers streaming at once (LIMIT_CONCURRENT_ASKS). */
  concurrentAsks: number;
  /** Questions per minute (LIMIT_ASKS_PER_MINUTE). */
  asksPerMinute: number;
  /** Follow and unfollow calls per hour, by key, address or several at once (LIMIT_FOLLOWS_PER_HOUR). */
  followsPerHour: number;
  /** Open GET /sync/live streams (LIMIT_LIVE_CONNECTIONS). */
  liveConnections: number;
  /** Uploads in flight (LIMIT_UPLOADS_IN_FLIGHT); for the upload routes to come. */
  uploadsInFlight: number;
};

export const DEFAULT_USER_LIMITS: UserLimits = {
  concurrentAsks: 3,
  asksPerMinute: 20,
  followsPerHour: 120,
  liveConnections: 8,
  uploadsInFlight: 10,
};

const MINUTE_MS = 60 * 1000;

/** "1 second", "40 seconds", "1 minute", "15 minutes": a wait of at least a second. */
export const waitInWords = (ms: number) => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/** A 429 "too many <what>; try again in <wait>" with Retry-After in whole seconds. */
export const refusalAfter = (ms: number, what: string) =>
  rateLimited(
    `too many ${what}; try again in ${waitInWords(ms)}`,
    Math.max(1, Math.ceil(ms / 1000)),
  );

type Rule = {
  /** Held while a request runs: how many at once, the refusal, and when to come back. */
  slots?: { of: (l: UserLimits) => number; busy: (n: number) => string; retryAfterS: number };
  /** Counted when a request is let in: how many per window, and what they are called. */
  rate?: { of: (l: UserLimits) => number; windowMs: number; what: string };
};

export type UserLimitKind = 'asks' | 'follows' | 'live' | 'uploads';

const RULES: Record<UserLimitKind, Rule> = {
  asks: {
    slots: {
      of: (l) => l.concurrentAsks,
      busy: (n) =>
        `too many questions at once: ${n} answers are already being written; try again when one has finished`,
      retryAfterS: 5,
    },
    rate: { of: (l) => l.asksPerMinute, windowMs: MINUTE_MS, what: 'questions' },
  },
  follows: { rate: { of: (l) => l.followsPerHour, windowMs: 60 * MINUTE_MS, what: 'follows' } },
  live: {
    slots: {
      of: (l) => l.liveConnections,
      busy: (n) =>
        `too many live connections: ${n} are open for this account; close some tabs or devices`,
      retryAfterS: 30,
    },
  },
  uploads: {
    slots: {
      of: (l) => l.uploadsInFlight,
      busy: (n) =>
        `too many uploads at once: ${n} are in progress; try again when one has finished`,
      retryAfterS: 5,
    },
  },
};

/** The limits of `deps` over the defaults (a key set to undefined keeps its default). */
export const userLimitsOf = (deps: Pick<AppDeps, 'userLimits'>): UserLimits => ({
  ...DEFAULT_USER_LIMITS,
  ...Object.fromEntries(Object.entries(deps.userLimits ?? {}).filter(([, v]) => v !== undefined)),
});

/** Every this many admissions, users idle past the window are forgotten. */
const SWEEP_EVERY = 1000;

/** `body`, read through; `release` runs once it ends, fails or is cancelled. */
const releasing = (body: ReadableStream<Uint8Array>, release: () => void) => {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
};

/**
 * Middleware holding the caller to the limit `kind` (one state per call: mount the one
 * middleware on every route the limit covers). Requests without a signed-in user pass on to
 * the route, which refuses them.
 */
export const userLimit = (
  deps: Pick<AppDeps, 'now' | 'userLimits'>,
  kind: UserLimitKind,
): MiddlewareHandler<AppEnv> => {
  const rule = RULES[kind];
  const limits = userLimitsOf(deps);
  const held = new Map<string, number>();
  const recent = new Map<string, number[]>();
  let admitted = 0;

  /** Times of the user's requests still in the window (and forgets the rest). */
  const inWindow = (userId: string, now: number, windowMs: number) => {
    const times = (recent.get(userId) ?? []).filter((t) => t > now - windowMs);
    if (times.length) recent.set(userId, times);
    else recent.delete(userId);
    return times;
  };

  return async (c, next) => {
    const userId = c.var.auth?.user.id;
    if (!userId) return next();
    const now = deps.now();
    const { slots, rate } = rule;
    if (slots) {
      const n = slots.of(limits);
      if ((held.get(userId) ?? 0) >= n) throw rateLimited(slots.busy(n), slots.retryAfterS);
    }
    if (rate) {
      const times = inWindow(userId, now, rate.windowMs);
      const n = rate.of(limits);
      if (times.length >= n) {
        throw refusalAfter(times[times.length - n] + rate.windowMs - now, rate.what);
      }
      recent.set(userId, [...times, now]);
      if (++admitted % SWEEP_EVERY === 0) {
        for (const [id, list] of recent) {
          if (list[list.length - 1] <= now - rate.windowMs) recent.delete(id);
        }
      }
    }
    if (!slots) return next();

    held.set(userId, (held.get(userId) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (held.get(userId) ?? 1) - 1;
      if (left > 0) held.set(userId, left);
      else held.delete(userId);
    };
    try {
      await next();
    } catch (err) {
      release();
      throw err;
    }
    const res = c.res;
    if (res.body && res.headers.get('content-type')?.startsWith('text/event-stream')) {
      const signal = c.req.raw.signal;
      if (signal.aborted) release();
      else signal.addEventListener('abort', release, { once: true });
      c.res = new Response(releasing(res.body, release), res);
    } else release();
  };
};

/**
 * Mounts `userLimit(kind)` on the contract endpoints `names` (their method and path only).
 * Call before the routes are registered: a route answers before middleware added after it.
 */
export const limitEndpoints = (
  app: OpenAPIHono<AppEnv>,
  deps: Pick<AppDeps, 'now' | 'userLimits' | 'product'>,
  kind: UserLimitKind,
  names: readonly EndpointName[],
) => {
  const limit = userLimit(deps, kind);
  for (const name of names) {
    const method = endpoints[name].method.toUpperCase();
    const path = `/api${endpointPath(name, deps.product).replace(/\{(\w+)\}/g, ':$1')}`;
    app.use(path, async (c, next) => (c.req.method === method ? limit(c, next) : next()));
  }
};
