import { z } from 'zod';
import { Ok } from './common';
import { defineDomain, Empty, endpoint, LIMITS, op, text } from './define';

const email = z
  .string({ message: 'email is required' })
  .max(LIMITS.email, { message: `email must be at most ${LIMITS.email} characters` })
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'email must be a valid e-mail address' }));
const password = z
  .string({ message: 'password is required' })
  .min(8, { message: 'password must be at least 8 characters' })
  .max(200, { message: 'password must be at most 200 characters' });

/** The platform-access (sign-up) screen's form. */
export const SignUpBody = z
  .object({
    name: text('name', 120).trim().min(1, { message: 'name is required' }),
    email,
    password,
    organization: text('organization', 120).trim().min(1).optional(),
  })
  .strict();
export type SignUpBody = z.infer<typeof SignUpBody>;

export const SignInBody = z
  .object({ email, password: z.string().min(1, { message: 'password is required' }).max(200) })
  .strict();
export type SignInBody = z.infer<typeof SignInBody>;

export const RefreshBody = z.object({ refresh_token: z.string().min(20).max(200) }).strict();
export type RefreshBody = z.infer<typeof RefreshBody>;

export const SignOutBody = z
  .object({ refresh_token: z.string().min(20).max(200).optional() })
  .strict();
export type SignOutBody = z.infer<typeof SignOutBody>;

export const ForgotPasswordBody = z.object({ email }).strict();
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ResetPasswordBody = z
  .object({ token: z.string().min(20, { message: 'token is malformed' }).max(200), password })
  .strict();
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** The user-settings screen's name change (`PUT /auth/profile`). */
export const UpdateProfileBody = z
  .object({ name: text('name', 120).trim().min(1, { message: 'name is required' }) })
  .strict();
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

/**
 * The user-settings screen's password change (`POST /auth/change-password`): the current
 * password is required; the new one follows the sign-up rules and must differ from it.
 */
export const ChangePasswordBody = z
  .object({
    current_password: z
      .string({ message: 'current_password is required' })
      .min(1, { message: 'current_password is required' })
      .max(200, { message: 'current_password must be at most 200 characters' }),
    password,
  })
  .strict()
  .refine((b) => b.current_password !== b.password, {
    path: ['password'],
    message: 'password must differ from the current password',
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const User = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  organization_id: z.string(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;

/**
 * A signed-in session. The id token is short-lived and sent as the `token` header; the refresh
 * token gets a new pair from /auth/refresh (and is rotated). Both are stored hashed server-side.
 */
export const Session = z.object({
  id_token: z.string(),
  refresh_token: z.string(),
  /** Seconds until the id token expires. */
  expires_in: z.number().int().positive(),
  user: User,
});
export type Session = z.infer<typeof Session>;

/** The auth poll's answer (GET /auth/session). */
export const SessionCheck = z.object({ user: User, expires_at: z.string() });
export type SessionCheck = z.infer<typeof SessionCheck>;

/** What a tab knows of the session. */
export const SessionState = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed-in'), user: User }),
  z.object({ status: z.literal('signed-out') }),
]);
export type SessionState = z.infer<typeof SessionState>;

/**
 * Accounts and the session. The /auth/* paths are "not shown" in the spec and designed here.
 * The user-settings screen (000 §2 `/settings/user-settings`) adds three, also designed here:
 * - PUT /auth/profile `{ name }`: the display name; answers the user.
 * - POST /auth/change-password `{ current_password, password }`: a wrong current password is a
 *   400 (never a 401: the session is fine); every other sign-in of the user ends (their tokens
 *   are revoked), this one stays.
 * - POST /auth/signout-everywhere: revokes every token of the user, this sign-in's too.
 */
export const auth = defineDomain({
  name: 'auth',
  endpoints: {
    signUp: endpoint({
      method: 'post',
      path: '/auth/signup',
      auth: false,
      body: SignUpBody,
      response: Session,
      status: 201,
      summary: 'Sign up (platform access)',
    }),
    signIn: endpoint({
      method: 'post',
      path: '/auth/signin',
      auth: false,
      body: SignInBody,
      response: Session,
      status: 200,
      summary: 'Sign in with e-mail and password',
    }),
    refresh: endpoint({
      method: 'post',
      path: '/auth/refresh',
      auth: false,
      body: RefreshBody,
      response: Session,
      status: 200,
      summary: 'Trade a refresh token for a fresh pair (rotates it)',
    }),
    signOut: endpoint({
      method: 'post',
      path: '/auth/signout',
      auth: true,
      body: SignOutBody,
      response: Ok,
      status: 200,
      summary: 'Sign out: revokes the id token and the refresh token',
    }),
    forgotPassword: endpoint({
      method: 'post',
      path: '/auth/forgot-password',
      auth: false,
      body: ForgotPasswordBody,
      response: Ok,
      status: 200,
      summary: 'Mail a password reset link',
    }),
    resetPassword: endpoint({
      method: 'post',
      path: '/auth/reset-password',
      auth: false,
      body: ResetPasswordBody,
      response: Ok,
      status: 200,
      summary: 'Set a new password with a reset token',
    }),
    updateProfile: endpoint({
      method: 'put',
      path: '/auth/profile',
      auth: true,
      body: UpdateProfileBody,
      response: User,
      status: 200,
      summary: "Change the user's display name",
    }),
    changePassword: endpoint({
      method: 'post',
      path: '/auth/change-password',
      auth: true,
      body: ChangePasswordBody,
      response: Ok,
      status: 200,
      summary: 'Change the password (the current one required); other sign-ins end',
    }),
    signOutEverywhere: endpoint({
      method: 'post',
      path: '/auth/signout-everywhere',
      auth: true,
      body: Empty,
      response: Ok,
      status: 200,
      summary: 'Sign out everywhere: revokes every token of the user',
    }),
    session: endpoint({
      method: 'get',
      path: '/auth/session',
      auth: true,
      response: SessionCheck,
      status: 200,
      summary: 'The auth poll: is this id token still good?',
    }),
  },
  ops: {
    'auth.session': op(Empty, SessionState),
    'auth.signIn': op(SignInBody, SessionState),
    'auth.signUp': op(SignUpBody, SessionState),
    'auth.forgotPassword': op(ForgotPasswordBody, Ok),
    'auth.resetPassword': op(ResetPasswordBody, Ok),
    'auth.signOut': op(Empty, z.void()),
    /** The user-settings screen: the name (the session's user follows), password, sign out everywhere. */
    'auth.updateProfile': op(UpdateProfileBody, SessionState),
    'auth.changePassword': op(ChangePasswordBody, Ok),
    'auth.signOutEverywhere': op(Empty, z.void()),
    /** After an OAuth sign-in the other tabs reload (000 §4). */
    'auth.oauthComplete': op(Empty, z.void()),
    /** Stored redirect: saved while signed out off the auth paths, taken on the first signed-in load. */
    'auth.storeRedirect': op(z.object({ path: text('path', LIMITS.path) }), z.void()),
    'auth.takeRedirect': op(Empty, z.object({ path: z.string().nullable() })),
  },
  changes: {},
  stores: [],
});
