import { createApiClient } from './api-client';
import { createAuthRelay, later } from './create-workspace-parts';
import type { WorkspaceDeps } from './deps';
import type { Mirror, StoreName } from './mirror';
import { createReads } from './reads';
import type { DomainContext } from './registry';
import { offerOf, type Registry } from './registry-build';
import { createSessionSignal, refreshDomains } from './registry-runtime';
import { createSync } from './sync';
import { createOutbox } from './outbox';
import { createSessionManager } from './session';
import { createTabRegistry } from './tabs';

/** A connection that has not said hello by then is not a tab: its port is closed. */
export const HELLO_TIMEOUT_MS = 60_000;

/**
 * Tabs, the API client and the session, with the calls that go back up from them (a tab
 * change, the server reached, a sign-in, a session change) left for the workspace to set once
 * their targets exist.
 */
export function createSessionCore(opts: {
  deps: WorkspaceDeps;
  registry: Registry;
  mirror: Promise<Mirror<string>>;
  warn: (message: string) => void;
}) {
  const { deps, registry, mirror } = opts;
  const tabsChanged = later<[], void>(undefined);
  const tabs = createTabRegistry({
    locks: deps.locks,
    clock: deps.clock,
    helloTimeoutMs: HELLO_TIMEOUT_MS,
    warn: opts.warn,
    onChange: tabsChanged.call,
  });
  const auth = createAuthRelay();
  const reached = later<[boolean], void>(undefined);
  const client = createApiClient({ ...deps, auth: auth.hooks, onReachable: reached.call });
  const signedIn = later<[string, boolean], Promise<void> | void>(undefined);
  const sessionChanged = later<[], void>(undefined);
  const session = createSessionManager({
    // The session's own stores are the core's; the domains' are wiped as user data.
    mirror: mirror as unknown as Promise<Mirror<StoreName>>,
    client,
    clock: deps.clock,
    locks: deps.locks,
    channel: deps.broadcastChannel(`${deps.product}-session`),
    randomId: deps.randomId,
    broadcast: tabs.broadcast,
    hooks: {
      signedIn: (user, here) => signedIn.call(user.id, here),
      changed: sessionChanged.call,
    },
    userData: { stores: [...registry.domainStores, 'cursors'] as StoreName[] },
  });
  auth.attach(session);
  const signal = createSessionSignal(session.owner);
  return { tabs, client, session, signal, tabsChanged, reached, signedIn, sessionChanged };
}

type SessionCore = ReturnType<typeof createSessionCore>;

/**
 * What every domain runs with (the mirror's reads, the client, the tabs and the other domains),
 * then the change feed that fills the mirror and the outbox that sends the domains' writes.
 */
export function createDomainRuntime(opts: {
  deps: WorkspaceDeps;
  registry: Registry;
  mirror: Promise<Mirror<string>>;
  client: SessionCore['client'];
  session: SessionCore['session'];
  signal: SessionCore['signal'];
  tabs: SessionCore['tabs'];
  track: (work: Promise<unknown>) => void;
}) {
  const { deps, registry, mirror, session, signal, tabs, track } = opts;
  const reads = createReads({
    mirror,
    owner: session.owner,
    signal: signal.current,
    domainStores: new Set(registry.domainStores),
    watchers: registry.watchers,
    emit: tabs.broadcast,
    track,
  });
  const ctx: DomainContext = {
    mirror,
    client: opts.client,
    clock: deps.clock,
    product: deps.product,
    owner: session.owner,
    signal: signal.current,
    reads,
    emit: tabs.broadcast,
    deliver: tabs.send,
    track,
    variant: tabs.variant,
    claimAnalytics: session.claimAnalytics,
    // The registry holds offers with their types erased; DomainOffers types each name's call.
    ask: ((name: string, ...args: unknown[]) =>
      offerOf(registry, name)(ctx, ...args)) as DomainContext['ask'],
  };
  const refresh = () => track(refreshDomains(registry.domains, ctx, tabs.variant()));
  const sync = createSync({
    mirror,
    client: opts.client,
    owner: session.owner,
    signal: signal.current,
    changes: registry.changes,
    domainStores: registry.domainStores,
    reads,
    afterReset: refresh,
    context: ctx,
    track,
  });
  const outbox = createOutbox({
    ...deps,
    mirror,
    client: opts.client,
    mutations: registry.mutations,
    context: ctx,
    owner: session.owner,
    emit: tabs.broadcast,
    announce: reads.announceChanges,
    confirmed: () => track(sync.pull()),
    track,
  });
  return { ctx, sync, outbox, refresh };
}
