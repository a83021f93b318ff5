import { z } from 'zod';

const email = z
  .string()
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
    name: z.string().trim().min(1, { message: 'name is required' }).max(120),
    email,
    password,
    organization: z.string().trim().min(1).max(120).optional(),
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
