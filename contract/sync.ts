import { z } from 'zod';
import { defineDomain, Empty, endpoint, op, queryInt } from './define';

/**
 * One entry of the per-user change sequence. `seq` is strictly increasing per user; `entity`
 * is one of the domains' change entities (domains.ts), `data` its schema there.
 */
export const Change = z.object({
  seq: z.number().int().positive(),
  entity: z.string(),
  entity_id: z.string(),
  op: z.enum(['upsert', 'delete']),
  data: z.unknown(),
  created_at: z.string(),
});
export type Change = z.infer<typeof Change>;

/** GET /sync/changes?after=cursor&limit=n */
export const ChangesQuery = z.object({
  after: z.coerce
    .number({ message: 'after must be a number' })
    .int({ message: 'after must be a whole number' })
    .min(0, { message: 'after must be 0 or more' })
    .max(Number.MAX_SAFE_INTEGER, { message: 'after is too large' })
    .default(0),
  limit: queryInt('limit', 1, 500, 200),
});
export type ChangesQuery = z.infer<typeof ChangesQuery>;

export const ChangesPage = z.object({
  changes: z.array(Change),
  /** Pass back as `after` to continue. */
  cursor: z.number().int().min(0),
  has_more: z.boolean(),
  /**
   * The cursor sent is older than the history the server keeps (it compacts its change log):
   * `changes` is empty and `cursor` is the newest; the client refetches what it mirrors, then
   * continues from `cursor`.
   */
  reset: z.boolean(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;

/**
 * GET /sync/live (designed here): server-sent events that say the user's change sequence moved,
 * `data: {"cursor":N}` (the newest sequence number; the first event comes at once), and a
 * comment line every LIVE_HEARTBEAT_MS so proxies keep the connection. The worker pulls
 * /sync/changes on each event. Authenticated by the `token` header like every call. It is not
 * an endpoint of the catalogue: its answer is a stream, not JSON.
 */
export const SYNC_LIVE_PATH = '/sync/live';
export const LiveEvent = z.object({ cursor: z.number().int().min(0) });
export type LiveEvent = z.infer<typeof LiveEvent>;
export const LIVE_HEARTBEAT_MS = 25_000;
/** While the live connection is down, a visible tab's worker pulls this often. */
export const LIVE_FALLBACK_PULL_MS = 15_000;

export const OutboxEntry = z.object({
  id: z.string(),
  /** The idempotency key sent with every attempt. */
  key: z.string(),
  op: z.string(),
  input: z.unknown(),
  attempts: z.number().int(),
  created_at: z.number(),
  last_error: z.string().nullable(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

/** The change feed the worker pulls, and the worker's outbox. /sync/* is designed here. */
export const sync = defineDomain({
  name: 'sync',
  endpoints: {
    changes: endpoint({
      method: 'get',
      path: '/sync/changes',
      auth: true,
      query: ChangesQuery,
      response: ChangesPage,
      status: 200,
      summary: 'Changes after a cursor, for the worker sync (reset when the cursor is too old)',
    }),
  },
  ops: {
    /** Pull the change feed after the stored cursor. */
    'sync.pull': op(Empty, z.object({ applied: z.number().int(), cursor: z.number().int() })),
    'outbox.list': op(Empty, z.array(OutboxEntry)),
    /** Try to send what the outbox holds now (also done on reconnect and on start). */
    'outbox.drain': op(Empty, z.object({ sent: z.number().int(), pending: z.number().int() })),
  },
  changes: {},
  stores: [],
});
