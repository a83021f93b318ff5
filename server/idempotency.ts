import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HEADERS } from '../contract/constants';
import type { AppDeps, AppEnv } from './context';
import type { Db } from './db/schema';
import { isUniqueViolation } from './db/tx';
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

class Rollback extends Error {}

/**
 * Every non-GET /api call carrying `idempotency-key` runs at most once per caller, method and
 * path. The handler runs inside one transaction together with the write of its answer, so the
 * effect and the record commit together. A 4xx/5xx answer is not stored and its writes are
 * rolled back: the client may fix the cause and retry with the same key. A repeat gets the
 * stored answer with `idempotent-replay: true`; the same key with a different body gets 409.
 */
export const idempotency =
  (deps: Pick<AppDeps, 'db' | 'now'>): MiddlewareHandler<AppEnv> =>
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

    const lookup = (db: Db) =>
      db
        .selectFrom('idempotency_records')
        .selectAll()
        .where((eb) => eb.and(where))
        .where('created_at', '>', iso(deps.now() - IDEMPOTENCY_TTL_MS))
        .executeTakeFirst();
    const replay = (rec: { request_hash: string; status: number; body: string }) => {
      if (rec.request_hash !== requestHash) {
        throw new ApiError(
          409,
          'conflict',
          'idempotency-key was already used for a different request body',
        );
      }
      return c.body(open(rec.body, scope, key), rec.status as ContentfulStatusCode, {
        'content-type': 'application/json',
        'idempotent-replay': 'true',
      });
    };

    const stored = await lookup(deps.db);
    if (stored) return replay(stored);

    try {
      await deps.db.transaction().execute(async (trx) => {
        c.set('db', trx);
        await next();
        if (c.res.status >= 400) throw new Rollback();
        // An expired record with this key may linger until the purge; this answer replaces it.
        await trx
          .deleteFrom('idempotency_records')
          .where((eb) => eb.and(where))
          .where('created_at', '<=', iso(deps.now() - IDEMPOTENCY_TTL_MS))
          .execute();
        await trx
          .insertInto('idempotency_records')
          .values({
            ...where,
            request_hash: requestHash,
            status: c.res.status,
            body: seal(await c.res.clone().text(), scope, key),
            created_at: iso(deps.now()),
          })
          .execute();
      });
    } catch (err) {
      if (err instanceof Rollback) return;
      // A concurrent request with the same key committed first: answer as it did.
      if (isUniqueViolation(err)) {
        const winner = await lookup(deps.db);
        if (winner) {
          c.res = replay(winner);
          return;
        }
      }
      throw err;
    } finally {
      c.set('db', deps.db);
      for (const write of c.var.afterTransaction.splice(0)) await write(deps.db);
    }
    for (const start of c.var.afterCommit.splice(0)) start();
  };

/** Forgets answers older than the replay window. */
export const purgeIdempotencyRecords = async (db: Db, now: number) => {
  await db
    .deleteFrom('idempotency_records')
    .where('created_at', '<=', iso(now - IDEMPOTENCY_TTL_MS))
    .execute();
};
