import { z } from 'zod';
import { ChatUpdate } from './assistant';
import { SessionState } from './auth';
import { allOps, StoreName } from './domains';
import { FeatureFlags, Preferences } from './user';

export { SessionState } from './auth';
export { OutboxEntry } from './sync';
export { Variant } from './tabs';

/**
 * The worker's API, one typed map of operations ([input, output] pairs, like AFFiNE's ops.ts),
 * merged from the domains (domains.ts). Each tab reaches it through comlink as `WorkspaceApi`;
 * the headless harness and the CLI call the same map in Node.
 */
export const workspaceOps = allOps;

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
  /**
   * Records of one mirror store changed: `keys` names them (a tab re-reads a row it shows only
   * when its key is listed); null means the whole store (a reset, a sign-in).
   */
  z.object({
    type: z.literal('changed'),
    store: StoreName,
    keys: z.array(z.string()).nullable(),
  }),
  /**
   * A chat this tab watches (ask.watch) moved: at most one per session per frame, to the
   * watching tabs only.
   */
  z.object({ type: z.literal('ask'), sessionId: z.string(), update: ChatUpdate }),
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
