import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HEADERS } from '../contract/constants';
import type { ControlledTransaction } from 'kysely';
import type { ErrorBody } from '../contract/common';
import type { AppDeps, AppEnv } from './context';
import type { Database, Db } from './db/schema';
import { ApiError } from './errors';
import { iso } from './time';

/** A stored answer is replayed for a day; after that the key is forgotten. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Stored answers can hold credentials (sign-in returns tokens), so they are encrypted with a
 * key derived from the idempotency key, which only the client knows and which is itself stored
 * only as a hash: a copy of the database does not reveal a live token.
 */
const cipherKey = (scope: string, key: string) => sha256(`replay-key\0${scope}\0${key}`);

const seal = (plain: string, scope: string, key: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(scope, key), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
};

const open = (sealed: string, scope: string, key: string): string => {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(scope, key), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
};

/** A claim row without an answer yet: its request is running (or its server died). */
const PENDING = 0;
/** A claim this old (by `now`) belongs to a request whose server died: another may take it. */
export const STALE_CLAIM_MS = 60 * 1000;
const POLL_MS = 50;
const DEFAULT_WAIT_MS = 5000;

const IN_PROGRESS = 'a request with this idempotency key is still in progress; retry';

/**
 * Every non-GET /api call carrying `idempotency-key` runs at most once per caller, method and
 * path. The first request claims the key with a pending row (its own short statement, so a
 * concurrent duplicate sees it at once) and runs the handler; the handler's writes (`transact`,
 * context.ts) and the answer replacing the claim commit in one transaction. A duplicate that
 * finds the claim pending waits for the answer and replays it, or answers 409 if it does not
 * come in time; a claim pending for over a minute is taken over (its server died). A 4xx/5xx
 * answer is not stored, its writes roll back and the claim is dropped: the client may fix the
 * cause and retry with the same key. A repeat gets the stored answer with
 * `idempotent-replay: true`; the same key with a different body gets 409.
 */
export const idempotency =
  (deps: Pick<AppDeps, 'db' | 'now' | 'idempotencyWaitMs'>): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const key = c.req.header(HEADERS.idempotencyKey);
    if (key === undefined || ['GET', 'HEAD', 'OPTIONS'].includes(c.req.method)) return next();
    if (key.length < 1 || key.length > 200) {
      throw new ApiError(400, 'bad_request', 'idempotency-key: must be 1 to 200 characters');
    }
    const scope = c.var.auth?.user.id ?? 'anon';
    // What identifies a record: the row's key columns, and the filter that finds it again.
    const where = {
      scope,
      method: c.req.method,
      path: c.req.path,
      key_hash: sha256(`idempotency\0${key}`).toString('hex'),
    };
    const requestHash = sha256(await c.req.text()).toString('hex');

    /** Claims the key (returns the claim's id), or answers as the request holding it did. */
    const claim = async (): Promise<string | Response> => {
      const deadline = Date.now() + (deps.idempotencyWaitMs ?? DEFAULT_WAIT_MS);
      for (;;) {
        const claimId = randomUUID();
        const now = deps.now();
        const pending = { request_hash: requestHash, status: PENDING, body: claimId };
        const inserted = await deps.db
          .insertInto('idempotency_records')
          .values({ ...where, ...pending, created_at: iso(now) })
          .onConflict((oc) => oc.columns(['scope', 'method', 'path', 'key_hash']).doNothing())
          .returning('key_hash')
          .executeTakeFirst();
        if (inserted) return claimId;
        // A claim whose server died, or an answer past the replay window: take the key over.
        const taken = await deps.db
          .updateTable('idempotency_records')
          .where((eb) => eb.and(where))
          .set({ ...pending, created_at: iso(now) })
          .where((eb) =>
            eb.or([
              eb.and([
                eb('status', '=', PENDING),
                eb('created_at', '<=', iso(now - STALE_CLAIM_MS)),
              ]),
              eb('created_at', '<=', iso(now - IDEMPOTENCY_TTL_MS)),
            ]),
          )
          .executeTakeFirst();
        if (taken.numUpdatedRows === 1n) return claimId;

        const rec = await deps.db
          .selectFrom('idempotency_records')
          .select(['request_hash', 'status', 'body'])
          .where((eb) => eb.and(where))
          .executeTakeFirst();
        if (rec && rec.request_hash !== requestHash) {
          throw new ApiError(
            409,
            'conflict',
            'idempotency-key was already used for a different request body',
          );
        }
        if (rec && rec.status !== PENDING) {
          return c.body(open(rec.body, scope, key), rec.status as ContentfulStatusCode, {
            'content-type': 'application/json',
            'idempotent-replay': 'true',
          });
        }
        if (Date.now() >= deadline) throw new ApiError(409, 'conflict', IN_PROGRESS);
        // Pending: wait for its answer. Gone: the holder failed and dropped it; claim anew.
        if (rec) await sleep(POLL_MS);
      }
    };

    const claimed = await claim();
    if (claimed instanceof Response) return claimed;
    const claimId = claimed;
    const ours = { status: PENDING, body: claimId };

    // Opened by the handler's first `transact`, after its slow work; committed below.
    let opening: Promise<ControlledTransaction<Database>> | null = null;
    const tx: { open: ControlledTransaction<Database> | null } = { open: null };
    c.set('openRequestTransaction', async () => {
      opening ??= deps.db
        .startTransaction()
        .execute()
        .then((t) => (tx.open = t));
      const t = await opening;
      c.set('db', t);
      return t;
    });
    let stored = false;
    let lost = false;
    try {
      await next();
      if (c.res.status < 400) {
        const answer = {
          status: c.res.status,
          body: seal(await c.res.clone().text(), scope, key),
          created_at: iso(deps.now()),
        };
        const done = await (tx.open ?? deps.db)
          .updateTable('idempotency_records')
          .set(answer)
          .where((eb) => eb.and({ ...where, ...ours }))
          .executeTakeFirst();
        if (done.numUpdatedRows === 1n) {
          await tx.open?.commit().execute();
          stored = true;
        } else {
          // Taken over as stale while this request ran: the other one's run counts.
          lost = true;
        }
      }
    } finally {
      if (tx.open && !stored) await rollbackQuietly(tx.open);
      c.set('db', deps.db);
      c.set('openRequestTransaction', null);
      for (const write of c.var.afterTransaction.splice(0)) await write(deps.db);
      const started = c.var.afterCommit.splice(0);
      if (!stored && !lost) {
        await deps.db
          .deleteFrom('idempotency_records')
          .where((eb) => eb.and({ ...where, ...ours }))
          .execute();
      }
      if (stored) for (const start of started) start();
    }
    if (lost) c.res = c.json<ErrorBody>({ error: 'conflict', message: IN_PROGRESS }, 409);
  };

const rollbackQuietly = async (trx: ControlledTransaction<Database>) => {
  if (trx.isCommitted || trx.isRolledBack) return;
  try {
    await trx.rollback().execute();
  } catch {
    // A failed commit may have ended the transaction already; there is nothing to undo.
  }
};

/** Forgets answers older than the replay window. */
export const purgeIdempotencyRecords = async (db: Db, now: number) => {
  await db
    .deleteFrom('idempotency_records')
    .where('created_at', '<=', iso(now - IDEMPOTENCY_TTL_MS))
    .execute();
};
