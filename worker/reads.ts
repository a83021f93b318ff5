import { ONBOARDING_FLAGS_FRESH_MS } from '../contract/constants';
import type {
  FeatureConfig,
  FeatureFlags,
  Notification,
  NotificationsPage,
  OnboardingFlags,
  OrganizationSelf,
  Preferences,
} from '../contract/user';
import type { Variant, WorkerEvent } from '../contract/worker-api';
import { ApiError, isNetworkError, type ApiClient } from './api-client';
import type { Clock } from './deps';
import type { Mirror, PatchItem } from './mirror';
import type { Owner } from './session';

/** The mirror's 'kv' keys. */
export const KV = {
  session: 'session',
  redirect: 'redirect',
  featureConfig: 'feature_config',
  preferences: 'preferences',
  org: 'org.self',
  onboarding: 'onboarding.flags',
  notificationsPage: (page: number) => `notifications.page.${page}`,
  isNotificationsPage: (key: string) => key.startsWith('notifications.page.'),
} as const;

/** A cached notifications page: the ids in order; the records live in 'notifications'. */
export type NotificationsPageMeta = Omit<NotificationsPage, 'results'> & { ids: string[] };

type Timed<T> = { value: T; fetched_at: number };

export const toFlags = (config: FeatureConfig): FeatureFlags =>
  Object.fromEntries(Object.entries(config.results).map(([k, v]) => [k, v === 'on']));

export type Reads = {
  flags(variant: Variant): Promise<FeatureFlags>;
  preferences(variant: Variant): Promise<Preferences>;
  org(variant: Variant): Promise<OrganizationSelf>;
  onboarding(variant: Variant): Promise<OnboardingFlags>;
  notificationsPage(page: number, variant: Variant): Promise<NotificationsPage>;
  /** Feature config and preferences are cached forever: fetched again on sign-in only. */
  refreshOnSignIn(variant: Variant): Promise<void>;
  /** Logical stores changed in the mirror: tell every tab (with the new flags/preferences). */
  announce(stores: string[]): void;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Reads answer from the mirror at once and revalidate from the server (stale-while-revalidate);
 * when the fresh answer differs, the tabs get a 'changed' event and read again. The spec's
 * cache rules (000 §7, §9): feature config and preferences forever (refreshed on sign-in and
 * by the change feed), onboarding flags fresh for 20 s.
 */
export function createReads(deps: {
  mirror: Promise<Mirror>;
  client: ApiClient;
  clock: Clock;
  /** The session the reads are for; its answers are written only while it lasts. */
  owner: () => Owner | null;
  broadcast: (event: WorkerEvent) => void;
  track: (work: Promise<unknown>) => void;
}): Reads {
  const inflight = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const existing = inflight.get(key) as Promise<T> | undefined;
    if (existing) return existing;
    const started = work().finally(() => inflight.delete(key));
    inflight.set(key, started);
    return started;
  };
  const kv = async <T>(key: string) => (await deps.mirror).get<T>('kv', key);

  /**
   * Fetch, store, and announce `store` if what the mirror answers changed. The answer is
   * stored only if the session that asked is still the stored one: a request answered after a
   * sign-out (or another sign-in) must not fill the next user's mirror.
   */
  const refetch = <T>(
    key: string,
    store: string,
    read: () => Promise<T | undefined>,
    fetch: (background: boolean) => Promise<PatchItem[]>,
    background: boolean,
  ): Promise<T> => {
    const owner = deps.owner();
    if (!owner) return Promise.reject(new ApiError(401, 'no_token', `${key}: not signed in`));
    // Per session: a new user never shares a request made for the previous one.
    return once(`${owner.session_id}:${key}`, async () => {
      const items = await fetch(background);
      const before = await read();
      if (!(await (await deps.mirror).write(items, owner.guard))) {
        throw new ApiError(401, 'session_changed', `${key}: the session changed while it loaded`);
      }
      const after = await read();
      if (before !== undefined && !same(before, after)) announce([store]);
      return after as T;
    });
  };

  /** The cached answer now and a revalidation in the background, or the server's answer. */
  const swr = async <T>(
    key: string,
    store: string,
    read: () => Promise<T | undefined>,
    fetch: (background: boolean) => Promise<PatchItem[]>,
  ): Promise<T> => {
    const cached = await read();
    if (cached !== undefined) {
      deps.track(refetch(key, store, read, fetch, true).catch(() => {}));
      return cached;
    }
    return refetch(key, store, read, fetch, false);
  };

  const readPage = async (page: number): Promise<NotificationsPage | undefined> => {
    const mirror = await deps.mirror;
    const meta = await mirror.get<NotificationsPageMeta>('kv', KV.notificationsPage(page));
    if (!meta) return undefined;
    const results: Notification[] = [];
    for (const id of meta.ids) {
      const item = await mirror.get<Notification>('notifications', id);
      if (!item) return undefined; // a record the change feed deleted: fetch the page again
      results.push(item);
    }
    const { ids: _ids, ...rest } = meta;
    return { ...rest, results };
  };

  const fetchConfig = async (variant: Variant, background: boolean) => {
    const config = await deps.client.call('featureConfig', { variant, background });
    return [{ store: 'kv' as const, key: KV.featureConfig, value: config }];
  };
  const fetchPreferences = async (variant: Variant, background: boolean) => {
    const value = await deps.client.call('preferences', { variant, background });
    return [{ store: 'kv' as const, key: KV.preferences, value }];
  };
  const readFlags = async () => {
    const config = await kv<FeatureConfig>(KV.featureConfig);
    return config && toFlags(config);
  };
  const readPreferences = () => kv<Preferences>(KV.preferences);

  function announce(stores: string[]) {
    if (stores.length === 0) return;
    deps.broadcast({ type: 'changed', stores });
    const tell = async () => {
      if (stores.includes('flags')) {
        const flags = await readFlags();
        if (flags) deps.broadcast({ type: 'flags', flags });
      }
      if (stores.includes('preferences')) {
        const preferences = await readPreferences();
        if (preferences) deps.broadcast({ type: 'preferences', preferences });
      }
    };
    deps.track(tell());
  }

  return {
    async flags(variant) {
      const cached = await readFlags();
      if (cached) return cached;
      return refetch('flags', 'flags', readFlags, (bg) => fetchConfig(variant, bg), false);
    },
    async preferences(variant) {
      const cached = await readPreferences();
      if (cached) return cached;
      return refetch(
        'preferences',
        'preferences',
        readPreferences,
        (bg) => fetchPreferences(variant, bg),
        false,
      );
    },
    org: (variant) =>
      swr(
        'org',
        'org',
        () => kv<OrganizationSelf>(KV.org),
        async (background) => [
          {
            store: 'kv',
            key: KV.org,
            value: await deps.client.call('organizationSelf', { variant, background }),
          },
        ],
      ),
    async onboarding(variant) {
      const cached = await kv<Timed<OnboardingFlags>>(KV.onboarding);
      const fresh = cached && deps.clock.now() - cached.fetched_at < ONBOARDING_FLAGS_FRESH_MS;
      if (cached && fresh) return cached.value;
      try {
        const timed = await refetch(
          'onboarding',
          'onboarding',
          () => kv<Timed<OnboardingFlags>>(KV.onboarding),
          async (background) => [
            {
              store: 'kv',
              key: KV.onboarding,
              value: {
                value: await deps.client.call('onboardingFlags', { variant, background }),
                fetched_at: deps.clock.now(),
              },
            },
          ],
          false,
        );
        return (timed as Timed<OnboardingFlags>).value;
      } catch (error) {
        // Offline: stale flags beat none.
        if (cached && isNetworkError(error)) return cached.value;
        throw error;
      }
    },
    notificationsPage: (page, variant) =>
      swr(
        `notifications.${page}`,
        'notifications',
        () => readPage(page),
        async (background) => {
          const answer = await deps.client.call('notifications', {
            query: { page },
            variant,
            background,
          });
          const { results, ...rest } = answer;
          return [
            ...results.map((n) => ({ store: 'notifications' as const, key: n.id, value: n })),
            {
              store: 'kv',
              key: KV.notificationsPage(page),
              value: { ...rest, ids: results.map((n) => n.id) },
            },
          ];
        },
      ),
    async refreshOnSignIn(variant) {
      await Promise.all([
        refetch('flags', 'flags', readFlags, (bg) => fetchConfig(variant, bg), true),
        refetch(
          'preferences',
          'preferences',
          readPreferences,
          (bg) => fetchPreferences(variant, bg),
          true,
        ),
      ]);
    },
    announce,
  };
}
