import { randomUUID } from 'node:crypto';
import type { User } from '../../contract/auth';
import { EMPTY_PREFERENCES } from '../../contract/user';
import type { Db } from '../db/schema';
import { isUniqueViolation } from '../db/tx';
import { ApiError } from '../errors';
import { iso } from '../time';

export type NewAccount = {
  name: string;
  email: string;
  /**
   * From hashPassword (auth/password.ts), computed before the caller's transaction: scrypt
   * takes a while, and on SQLite an open transaction holds the only connection.
   */
  passwordHash: string;
  /** A new organisation owned by the user (default "<name>'s workspace")... */
  organizationName?: string;
  /** ...or membership of an existing one. */
  joinOrganization?: { id: string; role: 'admin' | 'member' };
};

/**
 * Creates a user with everything a fresh account has: an organisation (or membership of one),
 * default preferences and onboarding flags. Call inside a transaction.
 */
export const createAccount = async (db: Db, input: NewAccount, now: number): Promise<User> => {
  const at = iso(now);
  const email = input.email.trim().toLowerCase();
  const exists = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (exists) throw duplicateEmail();
  const userId = randomUUID();
  const orgId = input.joinOrganization?.id ?? randomUUID();
  if (!input.joinOrganization) {
    await db
      .insertInto('organizations')
      .values({
        id: orgId,
        name: input.organizationName ?? `${input.name}'s workspace`,
        created_at: at,
      })
      .execute();
  }
  try {
    await db
      .insertInto('users')
      .values({
        id: userId,
        email,
        name: input.name,
        password_hash: input.passwordHash,
        organization_id: orgId,
        created_at: at,
        updated_at: at,
      })
      .execute();
  } catch (err) {
    // Two sign-ups racing for one address: the loser hears what a later one would.
    if (isUniqueViolation(err)) throw duplicateEmail();
    throw err;
  }
  await db
    .insertInto('organization_members')
    .values({
      organization_id: orgId,
      user_id: userId,
      role: input.joinOrganization?.role ?? 'owner',
      created_at: at,
    })
    .execute();
  await db
    .insertInto('preferences')
    .values({ user_id: userId, data: JSON.stringify(EMPTY_PREFERENCES), updated_at: at })
    .execute();
  await db
    .insertInto('onboarding_flags')
    .values({ user_id: userId, show_attributes_form: 1, show_search_modal: 1 })
    .execute();
  return { id: userId, email, name: input.name, organization_id: orgId, created_at: at };
};

const duplicateEmail = () =>
  new ApiError(409, 'conflict', 'an account with this e-mail already exists');
