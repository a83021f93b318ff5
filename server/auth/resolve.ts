import type { MiddlewareHandler } from 'hono';
import type { User } from '../../contract/auth';
import { HEADERS } from '../../contract/constants';
import type { AppDeps, AppEnv } from '../context';
import type { Db } from '../db/schema';
import { iso } from '../time';
import { hashToken } from './tokens';

/** Reads the `token` header into `c.var.auth`; routes that need a caller check it. */
export const resolveAuth =
  (deps: Pick<AppDeps, 'db' | 'now'>): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set('db', deps.db);
    c.set('afterCommit', []);
    c.set('afterTransaction', []);
    c.set('auth', null);
    c.set('staleAuth', null);
    c.set('openRequestTransaction', null);
    const token = c.req.header(HEADERS.token);
    if (!token) {
      c.set('authProblem', 'missing');
      return next();
    }
    const tokenHash = hashToken(token);
    const row = await deps.db
      .selectFrom('id_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select([
        't.family_id',
        't.expires_at',
        't.revoked_at',
        'u.id',
        'u.email',
        'u.name',
        'u.organization_id',
        'u.created_at',
      ])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) {
      c.set('authProblem', 'unknown');
      return next();
    }
    const info = {
      user: toUser(row),
      tokenHash,
      familyId: row.family_id,
      expiresAt: row.expires_at,
    };
    if (row.revoked_at !== null || row.expires_at <= iso(deps.now())) {
      c.set('authProblem', 'expired');
      c.set('staleAuth', info);
    } else {
      c.set('authProblem', null);
      c.set('auth', info);
    }
    return next();
  };

export const toUser = (row: {
  id: string;
  email: string;
  name: string;
  organization_id: string;
  created_at: string;
}): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  organization_id: row.organization_id,
  created_at: row.created_at,
});

export const findUserByEmail = (db: Db, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
