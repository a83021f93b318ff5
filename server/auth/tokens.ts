import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Session, User } from '../../contract/auth';
import type { Db } from '../db/schema';
import { iso } from '../time';

/** A bearer secret: 32 random bytes, base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps instead of a token. */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

export type TokenPolicy = { idTokenTtlSeconds: number; now: () => number };

/**
 * Issues an id token and a refresh token in one sign-in "family" (a new family for a fresh
 * sign-in, the same one when a refresh rotates). Only hashes are written.
 */
export const issueSession = async (
  db: Db,
  policy: TokenPolicy,
  user: User,
  familyId: string = randomUUID(),
): Promise<Session> => {
  const now = policy.now();
  const idToken = newToken();
  const refreshToken = newToken();
  await db
    .insertInto('id_tokens')
    .values({
      token_hash: hashToken(idToken),
      user_id: user.id,
      family_id: familyId,
      expires_at: iso(now + policy.idTokenTtlSeconds * 1000),
      revoked_at: null,
      created_at: iso(now),
    })
    .execute();
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: hashToken(refreshToken),
      user_id: user.id,
      family_id: familyId,
      expires_at: iso(now + REFRESH_TTL_MS),
      revoked_at: null,
      created_at: iso(now),
    })
    .execute();
  return {
    id_token: idToken,
    refresh_token: refreshToken,
    expires_in: policy.idTokenTtlSeconds,
    user,
  };
};

/** Revokes every live token of one sign-in family. */
export const revokeFamily = async (db: Db, userId: string, familyId: string, at: string) => {
  for (const table of ['id_tokens', 'refresh_tokens'] as const) {
    await db
      .updateTable(table)
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }
};

/** Revokes every live token the user holds (password reset). */
export const revokeAllTokens = async (db: Db, userId: string, at: string) => {
  for (const table of ['id_tokens', 'refresh_tokens'] as const) {
    await db
      .updateTable(table)
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }
};

/** Revokes every live token of the user but those of one sign-in family (a password change). */
export const revokeOtherFamilies = async (
  db: Db,
  userId: string,
  keepFamilyId: string,
  at: string,
) => {
  for (const table of ['id_tokens', 'refresh_tokens'] as const) {
    await db
      .updateTable(table)
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('family_id', '<>', keepFamilyId)
      .where('revoked_at', 'is', null)
      .execute();
  }
};
