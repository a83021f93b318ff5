import type { OpenAPIHono } from '@hono/zod-openapi';
import { afterCommit, afterTransaction, transact, type AppDeps, type AppEnv } from '../context';
import { badRequest, unauthorized } from '../errors';
import { routesFor } from '../http/define';
import { iso } from '../time';
import { createAccount } from './accounts';
import { decoyHash, hashPassword, verifyPassword } from './password';
import { findUserByEmail, toUser } from './resolve';
import {
  clearSignInFailures,
  countSettled,
  hashSubject,
  record,
  refusal,
  takeResetMailAllowance,
  THROTTLE,
} from './throttle';
import {
  hashToken,
  issueSession,
  newToken,
  revokeAllTokens,
  revokeFamily,
  revokeOtherFamilies,
  type TokenPolicy,
} from './tokens';

export const RESET_TTL_MS = 3600 * 1000;
export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for that e-mail, a link to reset the password is on its way.';

export const registerAuthRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const policy: TokenPolicy = { idTokenTtlSeconds: deps.idTokenTtlSeconds, now: deps.now };
  const on = routesFor('auth', app, deps.product);

  // Throttled per client address by addressThrottle (throttle.ts), mounted by auth/index.ts.
  // Password hashing stays outside the transaction (see `transact`).
  on('signUp', async (c, { body }) => {
    const passwordHash = await hashPassword(body.password);
    const session = await transact(c, async (db) => {
      const user = await createAccount(
        db,
        {
          name: body.name,
          email: body.email,
          passwordHash,
          organizationName: body.organization,
        },
        deps.now(),
      );
      return issueSession(db, policy, user);
    });
    deps.log(`sign-up: ${session.user.email}`);
    return session;
  });

  // Throttled by signInThrottle (sign-in-throttle.ts), mounted ahead of idempotency by
  // auth/index.ts. The password check runs before any transaction opens (see `transact`).
  on('signIn', async (c, { body }) => {
    const row = await findUserByEmail(c.var.db, body.email);
    const ok = await verifyPassword(body.password, row?.password_hash ?? (await decoyHash()));
    if (!row || !ok) throw unauthorized('e-mail or password is incorrect');
    return transact(c, (db) => issueSession(db, policy, toUser(row)));
  });

  on('refresh', async (c, { body }) => {
    const at = iso(deps.now());
    const row = await c.var.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(body.refresh_token))
      .executeTakeFirst();
    if (!row) throw unauthorized('refresh token is not recognised; sign in again');
    if (row.revoked_at !== null) {
      // A rotated token came back: someone may hold a copy, so end that whole sign-in. The
      // revocation must outlive this failing request's rollback.
      await afterTransaction(c, (db) => revokeFamily(db, row.user_id, row.family_id, at));
      throw unauthorized('refresh token was already used; sign in again');
    }
    if (row.expires_at <= at) throw unauthorized('refresh token has expired; sign in again');
    return transact(c, async (db) => {
      const rotated = await db
        .updateTable('refresh_tokens')
        .set({ revoked_at: at })
        .where('token_hash', '=', row.token_hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      // Another refresh with this token won the race.
      if (rotated.numUpdatedRows !== 1n) {
        throw unauthorized('refresh token was already used; sign in again');
      }
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', row.user_id)
        .executeTakeFirstOrThrow();
      return issueSession(db, policy, toUser(user), row.family_id);
    });
  });

  on('signOut', async (c, { body, auth }) => {
    await transact(c, async (db) => {
      const at = iso(deps.now());
      await revokeFamily(db, auth.user.id, auth.familyId, at);
      if (body.refresh_token) {
        await db
          .updateTable('refresh_tokens')
          .set({ revoked_at: at })
          .where('token_hash', '=', hashToken(body.refresh_token))
          .where('user_id', '=', auth.user.id)
          .where('revoked_at', 'is', null)
          .execute();
      }
    });
    return { ok: true as const, message: 'signed out' };
  });

  on('forgotPassword', async (c, { body }) => {
    const user = await findUserByEmail(c.var.db, body.email);
    if (user) {
      const now = deps.now();
      // The count of mails and the link's token commit together, and the mail leaves after.
      await transact(c, async (db) => {
        if (!(await takeResetMailAllowance(db, user.email, now))) {
          // The caller hears the usual answer: a refusal would tell that the account exists.
          deps.log(
            `password reset mail to ${user.email} not sent: ${THROTTLE.reset_mail.limit} already sent within the hour`,
          );
          return;
        }
        const token = newToken();
        await db
          .insertInto('password_resets')
          .values({
            token_hash: hashToken(token),
            user_id: user.id,
            expires_at: iso(now + RESET_TTL_MS),
            used_at: null,
            created_at: iso(now),
          })
          .execute();
        const link = `${deps.publicUrl()}/auth/reset-password?token=${encodeURIComponent(token)}`;
        const message = {
          to: user.email,
          subject: `Reset your ${deps.product} password`,
          text:
            `Hello ${user.name},\n\nSomeone asked to reset the password of this account. ` +
            `Open this link within an hour to choose a new one:\n\n${link}\n\n` +
            `If it was not you, ignore this e-mail; the password stays as it is.\n`,
        };
        afterCommit(c, () => {
          deps.mailer.send(message).catch((err: unknown) => {
            deps.log(
              `mail to ${user.email} failed: ${err instanceof Error ? err.message : String(err)}`,
            );
          });
        });
      });
    }
    // The same answer either way: the form must not tell who has an account.
    return { ok: true as const, message: FORGOT_PASSWORD_MESSAGE };
  });

  // Throttled per client address by addressThrottle (throttle.ts), mounted by auth/index.ts.
  on('resetPassword', async (c, { body }) => {
    const tokenHash = hashToken(body.token);
    const usable = <R extends { used_at: string | null; expires_at: string }>(row?: R): R => {
      if (!row || row.used_at !== null) {
        throw badRequest('reset token is invalid or has already been used');
      }
      if (row.expires_at <= iso(deps.now())) {
        throw badRequest('reset token has expired; request a new one');
      }
      return row;
    };
    // The token is checked before the password is hashed: a made-up token costs no scrypt.
    usable(
      await c.var.db
        .selectFrom('password_resets')
        .select(['used_at', 'expires_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst(),
    );
    const passwordHash = await hashPassword(body.password);
    await transact(c, async (db) => {
      const at = iso(deps.now());
      // Again, in the transaction: another reset may have spent it during the hashing.
      const { user_id: userId } = usable(
        await db
          .selectFrom('password_resets')
          .selectAll()
          .where('token_hash', '=', tokenHash)
          .executeTakeFirst(),
      );
      // Spend every outstanding reset link of this user, not just this one.
      const spent = await db
        .updateTable('password_resets')
        .set({ used_at: at })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (spent.numUpdatedRows === 0n) {
        throw badRequest('reset token is invalid or has already been used');
      }
      const user = await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: at })
        .where('id', '=', userId)
        .returning('email')
        .executeTakeFirstOrThrow();
      await revokeAllTokens(db, userId, at);
      await clearSignInFailures(db, user.email);
    });
    return { ok: true as const, message: 'password changed; sign in with the new password' };
  });

  on('session', async (_c, { auth }) => ({ user: auth.user, expires_at: auth.expiresAt }));

  // The user-settings screen (contract/auth.ts says what each promises).
  on('updateProfile', async (c, { body, auth }) =>
    transact(c, async (db) => {
      const row = await db
        .updateTable('users')
        .set({ name: body.name, updated_at: iso(deps.now()) })
        .where('id', '=', auth.user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    }),
  );

  // The check and the hashing run before the transaction (see `transact`). A wrong current
  // password is a 400: a 401 would tell the client its session is gone.
  // At most THROTTLE.password_user wrong current passwords per user in its window: each is
  // written down on the root handle, so it outlives the failing request's rollback.
  on('changePassword', async (c, { body, auth }) => {
    const wrong = { kind: 'password_user' as const, subject: hashSubject(auth.user.id) };
    const now = deps.now();
    if (
      (await countSettled(deps.db, wrong.kind, wrong.subject, now)) >= THROTTLE.password_user.limit
    ) {
      throw await refusal(deps.db, [wrong], now, 'wrong current passwords');
    }
    const row = await c.var.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', auth.user.id)
      .executeTakeFirstOrThrow();
    if (!(await verifyPassword(body.current_password, row.password_hash))) {
      await record(deps.db, [wrong], now);
      throw badRequest('current_password: the current password is incorrect');
    }
    const passwordHash = await hashPassword(body.password);
    await transact(c, async (db) => {
      const at = iso(deps.now());
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: at })
        .where('id', '=', auth.user.id)
        .execute();
      await revokeOtherFamilies(db, auth.user.id, auth.familyId, at);
    });
    return { ok: true as const, message: 'password changed; other sign-ins have ended' };
  });

  on('signOutEverywhere', async (c, { auth }) => {
    await transact(c, (db) => revokeAllTokens(db, auth.user.id, iso(deps.now())));
    return { ok: true as const, message: 'signed out everywhere' };
  });
};
