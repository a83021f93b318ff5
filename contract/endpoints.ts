import type { z } from 'zod';
import {
  ForgotPasswordBody,
  RefreshBody,
  ResetPasswordBody,
  Session,
  SessionCheck,
  SignInBody,
  SignOutBody,
  SignUpBody,
} from './auth';
import { Health, Ok } from './common';
import { ChangesPage, ChangesQuery } from './sync';
import { AnalyticsReportBody, DebugLogBody } from './telemetry';
import {
  FeatureConfig,
  MarkNotificationsReadBody,
  MarkNotificationsReadResult,
  NotificationsPage,
  NotificationsQuery,
  OnboardingFlags,
  OrganizationList,
  OrganizationSelf,
  Preferences,
  PreferencesPatch,
} from './user';

/**
 * The API catalogue: every call's method, path (relative to /api), request and response. The
 * server registers its routes from these and the worker's client calls through them, so a shape
 * is written once. `{product}` in a path is the PRODUCT setting (see `endpointPath`).
 * Paths follow spec 000 §7; the /auth/* and /sync/* paths and the notification read call are
 * "not shown" in the spec and designed here.
 */
type EndpointDef = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /** false for the calls a signed-out visitor makes. */
  auth: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  response: z.ZodType;
  /** HTTP status of success. */
  status: 200 | 201;
  summary: string;
};

const def = <const T extends EndpointDef>(d: T) => d;

export const endpoints = {
  health: def({
    method: 'get',
    path: '/health',
    auth: false,
    response: Health,
    status: 200,
    summary: 'Ready check',
  }),
  signUp: def({
    method: 'post',
    path: '/auth/signup',
    auth: false,
    body: SignUpBody,
    response: Session,
    status: 201,
    summary: 'Sign up (platform access)',
  }),
  signIn: def({
    method: 'post',
    path: '/auth/signin',
    auth: false,
    body: SignInBody,
    response: Session,
    status: 200,
    summary: 'Sign in with e-mail and password',
  }),
  refresh: def({
    method: 'post',
    path: '/auth/refresh',
    auth: false,
    body: RefreshBody,
    response: Session,
    status: 200,
    summary: 'Trade a refresh token for a fresh pair (rotates it)',
  }),
  signOut: def({
    method: 'post',
    path: '/auth/signout',
    auth: true,
    body: SignOutBody,
    response: Ok,
    status: 200,
    summary: 'Sign out: revokes the id token and the refresh token',
  }),
  forgotPassword: def({
    method: 'post',
    path: '/auth/forgot-password',
    auth: false,
    body: ForgotPasswordBody,
    response: Ok,
    status: 200,
    summary: 'Mail a password reset link',
  }),
  resetPassword: def({
    method: 'post',
    path: '/auth/reset-password',
    auth: false,
    body: ResetPasswordBody,
    response: Ok,
    status: 200,
    summary: 'Set a new password with a reset token',
  }),
  session: def({
    method: 'get',
    path: '/auth/session',
    auth: true,
    response: SessionCheck,
    status: 200,
    summary: 'The auth poll: is this id token still good?',
  }),
  organizations: def({
    method: 'get',
    path: '/organizations',
    auth: true,
    response: OrganizationList,
    status: 200,
    summary: "The caller's organisations",
  }),
  organizationSelf: def({
    method: 'get',
    path: '/organizations/self',
    auth: true,
    response: OrganizationSelf,
    status: 200,
    summary: "The caller's organisation with permissions",
  }),
  preferences: def({
    method: 'get',
    path: '/user/preferences',
    auth: true,
    response: Preferences,
    status: 200,
    summary: 'User preferences (nav_state, overlay widths)',
  }),
  updatePreferences: def({
    method: 'put',
    path: '/user/preferences',
    auth: true,
    body: PreferencesPatch,
    response: Preferences,
    status: 200,
    summary: 'Update user preferences',
  }),
  featureConfig: def({
    method: 'get',
    path: '/feature/config',
    auth: true,
    response: FeatureConfig,
    status: 200,
    summary: 'Feature flags: per-user overrides over defaults',
  }),
  onboardingFlags: def({
    method: 'get',
    path: '/onboarding/flags',
    auth: true,
    response: OnboardingFlags,
    status: 200,
    summary: 'Onboarding flags',
  }),
  notifications: def({
    method: 'get',
    path: '/notifications',
    auth: true,
    query: NotificationsQuery,
    response: NotificationsPage,
    status: 200,
    summary: 'Notifications, 20 a page',
  }),
  markNotificationsRead: def({
    method: 'post',
    path: '/notifications/read',
    auth: true,
    body: MarkNotificationsReadBody,
    response: MarkNotificationsReadResult,
    status: 200,
    summary: 'Mark notifications read',
  }),
  debugLogs: def({
    method: 'post',
    path: '/debug-logs',
    auth: true,
    body: DebugLogBody,
    response: Ok,
    status: 200,
    summary: 'Client debug log',
  }),
  analyticsReport: def({
    method: 'post',
    path: '/{product}-analytics/report',
    auth: true,
    body: AnalyticsReportBody,
    response: Ok,
    status: 200,
    summary: 'Analytics report, once per session',
  }),
  changes: def({
    method: 'get',
    path: '/sync/changes',
    auth: true,
    query: ChangesQuery,
    response: ChangesPage,
    status: 200,
    summary: 'Changes after a cursor, for the worker sync',
  }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
type Field<E, K extends string> = E extends Record<K, infer S extends z.ZodType> ? S : never;
export type EndpointBody<N extends EndpointName> = z.input<Field<Endpoints[N], 'body'>>;
export type EndpointQuery<N extends EndpointName> = z.input<Field<Endpoints[N], 'query'>>;
export type EndpointResponse<N extends EndpointName> = z.infer<Endpoints[N]['response']>;

/** A mutation is any call that is not a GET; each carries an idempotency key. */
export const isMutation = (name: EndpointName) => endpoints[name].method !== 'get';

/** The path with `{product}` filled in (relative to /api). */
export const endpointPath = (name: EndpointName, product: string) =>
  endpoints[name].path.replace('{product}', product);
