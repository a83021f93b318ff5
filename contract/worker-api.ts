import { z } from 'zod';
import { ForgotPasswordBody, ResetPasswordBody, SignInBody, SignUpBody, User } from './auth';
import { Ok } from './common';
import { VARIANTS } from './constants';
import { DebugLogBody, AnalyticsReportBody } from './telemetry';
import {
  FeatureFlags,
  MarkNotificationsReadBody,
  NotificationsPage,
  OnboardingFlags,
  OrganizationSelf,
  Preferences,
  PreferencesPatch,
} from './user';

export const Variant = z.enum(VARIANTS);
export type Variant = z.infer<typeof Variant>;

/** What a tab knows of the session. */
export const SessionState = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed-in'), user: User }),
  z.object({ status: z.literal('signed-out') }),
]);
export type SessionState = z.infer<typeof SessionState>;

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

const op = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });
const Empty = z.object({}).strict();

/**
 * The worker's API, one typed map of operations ([input, output] pairs, like AFFiNE's ops.ts).
 * Each tab reaches it through comlink as `WorkspaceApi`; the headless harness and the CLI call
 * the same map in Node.
 */
export const workspaceOps = {
  /** A tab introduces itself; the answer is the session as the worker knows it. */
  'tab.hello': op(
    z.object({
      tab_id: z.string().min(1),
      variant: Variant,
      visible: z.boolean(),
      path: z.string(),
    }),
    SessionState,
  ),
  'tab.visibility': op(z.object({ visible: z.boolean() }), z.void()),
  /** Every route change checks the session (000 §4). */
  'tab.route': op(z.object({ path: z.string() }), SessionState),
  'tab.bye': op(Empty, z.void()),

  'auth.session': op(Empty, SessionState),
  'auth.signIn': op(SignInBody, SessionState),
  'auth.signUp': op(SignUpBody, SessionState),
  'auth.forgotPassword': op(ForgotPasswordBody, Ok),
  'auth.resetPassword': op(ResetPasswordBody, Ok),
  'auth.signOut': op(Empty, z.void()),
  /** After an OAuth sign-in the other tabs reload (000 §4). */
  'auth.oauthComplete': op(Empty, z.void()),
  /** Stored redirect: saved while signed out off the auth paths, taken on the first signed-in load. */
  'auth.storeRedirect': op(z.object({ path: z.string() }), z.void()),
  'auth.takeRedirect': op(Empty, z.object({ path: z.string().nullable() })),

  'flags.get': op(Empty, FeatureFlags),
  'preferences.get': op(Empty, Preferences),
  'preferences.update': op(PreferencesPatch, Preferences),
  'org.self': op(Empty, OrganizationSelf),
  'onboarding.flags': op(Empty, OnboardingFlags),
  'notifications.page': op(z.object({ page: z.number().int().min(1) }), NotificationsPage),
  'notifications.markRead': op(MarkNotificationsReadBody, z.void()),
  'log.debug': op(DebugLogBody, z.void()),
  'analytics.report': op(AnalyticsReportBody, z.void()),

  /** Pull the change feed after the stored cursor. */
  'sync.pull': op(Empty, z.object({ applied: z.number().int(), cursor: z.number().int() })),
  'outbox.list': op(Empty, z.array(OutboxEntry)),
  /** Try to send what the outbox holds now (also done on reconnect and on start). */
  'outbox.drain': op(Empty, z.object({ sent: z.number().int(), pending: z.number().int() })),
} as const;

export type WorkspaceOps = typeof workspaceOps;
export type OpName = keyof WorkspaceOps;
export type OpInput<K extends OpName> = z.input<WorkspaceOps[K]['input']>;
export type OpOutput<K extends OpName> = z.infer<WorkspaceOps[K]['output']>;

/** Worker-to-tab messages: one tagged union on `type`. */
export const WorkerEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), session: SessionState }),
  /**
   * The session ended. `origin_tab` is the tab that signed out, if any; every other tab shows
   * the sign-in-required modal. `reason: 'session-lost'` (no token, refresh failed) shows it
   * in every tab.
   */
  z.object({
    type: z.literal('logout'),
    reason: z.enum(['signed-out', 'session-lost']),
    origin_tab: z.string().nullable(),
  }),
  z.object({ type: z.literal('reload'), reason: z.literal('oauth') }),
  z.object({ type: z.literal('flags'), flags: FeatureFlags }),
  z.object({ type: z.literal('preferences'), preferences: Preferences }),
  /** Mirror stores whose contents changed (the tab re-reads what it shows). */
  z.object({ type: z.literal('changed'), stores: z.array(z.string()) }),
  z.object({ type: z.literal('outbox'), pending: z.number().int().nonnegative() }),
  z.object({ type: z.literal('online'), online: z.boolean() }),
  z.object({
    type: z.literal('toast'),
    kind: z.enum(['blank', 'error', 'success', 'loading', 'custom']),
    message: z.string(),
  }),
]);
export type WorkerEvent = z.infer<typeof WorkerEvent>;

/** The API each tab holds (through comlink): one typed call plus an event subscription. */
export interface WorkspaceApi {
  call<K extends OpName>(op: K, input: OpInput<K>): Promise<OpOutput<K>>;
  /** The listener is a comlink proxy in the browser, a plain function in Node. */
  subscribe(listener: (event: WorkerEvent) => void): Promise<void>;
}
