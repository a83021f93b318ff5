import type { OpenAPIHono } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { LIVE_HEARTBEAT_MS, SYNC_LIVE_PATH, type LiveEvent } from '../../contract/sync';
import type { AppDeps, AppEnv } from '../context';
import { requireAuth } from '../http/define';
import { userLimit } from '../http/user-limits';
import { onChangeWritten } from './live-signal';

/**
 * GET /api/sync/live: server-sent events telling a signed-in worker that its user's change
 * sequence moved (`data: {"cursor":N}`), so it pulls /sync/changes at once instead of waiting
 * for its next poll. Two sources feed it: the in-process signal changes.ts raises for every
 * change written here (checked against the committed sequence, again shortly if the writing
 * transaction has not committed yet), and a poll of users.change_seq every POLL_MS for the
 * connected users, which brings changes written by other server processes. A comment line
 * every LIVE_HEARTBEAT_MS keeps proxies from closing an idle connection.
 */

export const LIVE_POLL_MS = 2_000;
/** After a signal, the committed sequence is read at these delays until it has moved. */
const SIGNAL_CHECKS_MS = [0, 50, 250, 1_000];
/** Users per poll query. */
const POLL_BATCH = 500;

type Listener = { sent: number; send(cursor: number): void };

export type LiveHub = {
  /** Registers a connection of `userId`; answers its removal. */
  add(userId: string, listener: Listener): () => void;
  /** Reads the user's committed sequence and tells each of its connections that is behind. */
  check(userId: string): Promise<number | null>;
  connections(): number;
};

export function createLiveHub(deps: Pick<AppDeps, 'db' | 'log'>): LiveHub {
  const users = new Map<string, Set<Listener>>();
  let poll: ReturnType<typeof setInterval> | null = null;
  let unsubscribe: (() => void) | null = null;

  const tell = (userId: string, seq: number) => {
    for (const listener of users.get(userId) ?? []) {
      if (seq > listener.sent) listener.send(seq);
    }
  };

  const read = async (ids: string[]) => {
    const rows = await deps.db
      .selectFrom('users')
      .select(['id', 'change_seq'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, Number(r.change_seq)]));
  };

  const check = async (userId: string) => {
    const seq = (await read([userId])).get(userId) ?? null;
    if (seq !== null) tell(userId, seq);
    return seq;
  };

  const onSignal = (userId: string, seq: number) => {
    if (!users.has(userId)) return;
    let attempt = 0;
    const next = () => {
      const timer = setTimeout(() => {
        check(userId)
          .then((now) => {
            attempt += 1;
            if ((now ?? 0) < seq && attempt < SIGNAL_CHECKS_MS.length && users.has(userId)) next();
          })
          .catch((err: unknown) => deps.log(`live: reading the change sequence failed: ${err}`));
      }, SIGNAL_CHECKS_MS[attempt]);
      timer.unref?.();
    };
    next();
  };

  const pollAll = async () => {
    const ids = [...users.keys()];
    for (let i = 0; i < ids.length; i += POLL_BATCH) {
      const seqs = await read(ids.slice(i, i + POLL_BATCH));
      for (const [id, seq] of seqs) tell(id, seq);
    }
  };

  const start = () => {
    unsubscribe = onChangeWritten(onSignal);
    poll = setInterval(() => {
      pollAll().catch((err: unknown) => deps.log(`live: polling change sequences failed: ${err}`));
    }, LIVE_POLL_MS);
    poll.unref?.();
  };
  const stop = () => {
    unsubscribe?.();
    unsubscribe = null;
    if (poll) clearInterval(poll);
    poll = null;
  };

  return {
    add(userId, listener) {
      if (users.size === 0) start();
      const set = users.get(userId) ?? new Set();
      set.add(listener);
      users.set(userId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && users.get(userId) === set) users.delete(userId);
        if (users.size === 0) stop();
      };
    },
    check,
    connections: () => [...users.values()].reduce((n, set) => n + set.size, 0),
  };
}

/** Registers GET /api/sync/live (from the sync domain's routes). */
export function registerLiveRoute(app: OpenAPIHono<AppEnv>, deps: AppDeps): LiveHub {
  const hub = createLiveHub(deps);
  // Listed in /api/openapi.json beside the contract's endpoints (its answer is a stream).
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: `/api${SYNC_LIVE_PATH}`,
    summary: 'Server-sent events: data {"cursor":N} whenever the change sequence moves',
    operationId: 'syncLive',
    security: [{ token: [] }],
    responses: {
      200: { description: 'An event stream', content: { 'text/event-stream': { schema: {} } } },
      401: { description: 'No token, or an unknown one' },
      429: { description: 'Too many live connections open for this user' },
    },
  });
  // At most LIMIT_LIVE_CONNECTIONS open per user (the worker holds one for all its tabs).
  app.get(`/api${SYNC_LIVE_PATH}`, requireAuth, userLimit(deps, 'live'), (c) => {
    const userId = c.var.auth!.user.id;
    const aborted = c.req.raw.signal;
    return streamSSE(c, async (stream) => {
      const event = (cursor: number): LiveEvent => ({ cursor });
      const listener: Listener = {
        sent: -1,
        send(cursor) {
          listener.sent = cursor;
          // Not awaited: a slow reader must not hold up the others.
          void stream.writeSSE({ data: JSON.stringify(event(cursor)) });
        },
      };
      const remove = hub.add(userId, listener);
      const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), LIVE_HEARTBEAT_MS);
      heartbeat.unref?.();
      try {
        const gone = new Promise<void>((resolve) => {
          stream.onAbort(resolve);
          if (aborted.aborted) resolve();
          aborted.addEventListener('abort', () => resolve(), { once: true });
        });
        // The first event at once: the worker pulls what it missed while disconnected.
        const seq = await hub.check(userId);
        if (seq === null) return;
        await gone;
      } finally {
        clearInterval(heartbeat);
        remove();
      }
    });
  });
  return hub;
}
