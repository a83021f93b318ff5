import { dequal } from 'dequal';
import { ONBOARDING_FLAGS_FRESH_MS } from '../../contract/constants';
import type { Variant } from '../../contract/tabs';
import {
  ACCOUNT_KEYS,
  EMPTY_PREFERENCES,
  mergePreferences,
  toFlags,
  user,
  type FeatureConfig,
  type FeatureFlags,
  type OnboardingFlags,
  type OrganizationSelf,
  type Preferences,
} from '../../contract/user';
import { isNetworkError } from '../api-client';
import type { CachedRead } from '../reads';
import { defineWorkerDomain, type DomainContext, type StoreOf } from '../registry';

type S = StoreOf<typeof user>;
type Ctx = DomainContext<S>;

/** One record per ACCOUNT_KEYS value: preferences, feature config, organisation, onboarding. */
const ACCOUNT = 'account' satisfies S;

/** Onboarding flags are fresh for 20 s: kept with the time they were fetched. */
type Timed<T> = { value: T; fetched_at: number };

const record = async <T>(ctx: Ctx, key: string) => (await ctx.mirror).get<T>(ACCOUNT, key);

/** A record of 'account' fetched from one endpoint. */
const accountRead = <T, V = T>(
  ctx: Ctx,
  key: string,
  fetch: (options: { background: boolean; signal: AbortSignal }) => Promise<V>,
  view: (value: V) => T = (value) => value as unknown as T,
): CachedRead<T, S> => ({
  key: `account.${key}`,
  read: async () => {
    const value = await record<V>(ctx, key);
    return value === undefined ? undefined : view(value);
  },
  fetch: async (options) => [{ store: ACCOUNT, key, value: await fetch(options) }],
});

/** Feature config, cached forever; fetched with the session's cancel signal (000 §7). */
const flagsRead = (ctx: Ctx, variant: Variant) =>
  accountRead<FeatureFlags, FeatureConfig>(
    ctx,
    ACCOUNT_KEYS.featureConfig,
    ({ background, signal }) => ctx.client.call('featureConfig', { variant, background, signal }),
    toFlags,
  );

/** Preferences, cached forever (refreshed on sign-in and by the change feed). */
const preferencesRead = (ctx: Ctx, variant: Variant) =>
  accountRead<Preferences>(ctx, ACCOUNT_KEYS.preferences, ({ background, signal }) =>
    ctx.client.call('preferences', { variant, background, signal }),
  );

const currentPreferences = async (ctx: Ctx) =>
  (await record<Preferences>(ctx, ACCOUNT_KEYS.preferences)) ?? EMPTY_PREFERENCES;

/**
 * The signed-in user's account: preferences, feature flags, organisation and onboarding, one
 * record each in the 'account' store. The spec's cache rules (000 §7, §9): feature config and
 * preferences forever (fetched again on sign-in, after a feed reset, and moved by the change
 * feed), the organisation stale-while-revalidate, onboarding flags fresh for 20 s.
 */
export const userDomain = defineWorkerDomain(user, {
  stores: { account: { keyPath: null, version: 1 } },
  reads: {
    'flags.get': (ctx, _input, conn) => ctx.reads.cached(flagsRead(ctx, conn.variant)),
    'preferences.get': (ctx, _input, conn) => ctx.reads.cached(preferencesRead(ctx, conn.variant)),
    'org.self': (ctx, _input, conn) =>
      ctx.reads.swr(
        accountRead<OrganizationSelf>(ctx, ACCOUNT_KEYS.org, ({ background, signal }) =>
          ctx.client.call('organizationSelf', { variant: conn.variant, background, signal }),
        ),
      ),
    async 'onboarding.flags'(ctx, _input, conn) {
      const cached = await record<Timed<OnboardingFlags>>(ctx, ACCOUNT_KEYS.onboarding);
      if (cached && ctx.clock.now() - cached.fetched_at < ONBOARDING_FLAGS_FRESH_MS) {
        return cached.value;
      }
      const read = accountRead<Timed<OnboardingFlags>>(
        ctx,
        ACCOUNT_KEYS.onboarding,
        async ({ background, signal }) => ({
          value: await ctx.client.call('onboardingFlags', {
            variant: conn.variant,
            background,
            signal,
          }),
          fetched_at: ctx.clock.now(),
        }),
      );
      try {
        const fresh = await ctx.reads.refetch(read, { background: false, announce: false });
        // Its fetch time always moves; the tabs hear of it only when the flags did.
        if (cached && !dequal(cached.value, fresh.value)) {
          ctx.reads.announce(ACCOUNT, [ACCOUNT_KEYS.onboarding]);
        }
        return fresh.value;
      } catch (error) {
        // Offline: stale flags beat none.
        if (cached && isNetworkError(error)) return cached.value;
        throw error;
      }
    },
  },
  mutations: {
    'preferences.update': {
      endpoint: 'updatePreferences',
      async optimistic(ctx, patch) {
        const next = mergePreferences(await currentPreferences(ctx), patch);
        return [{ store: ACCOUNT, key: ACCOUNT_KEYS.preferences, value: next }];
      },
      confirm: (_patch, result) => [
        { store: ACCOUNT, key: ACCOUNT_KEYS.preferences, value: result },
      ],
      output: (result) => result,
      // Offline, the caller sees what the mirror shows: its change already applied.
      deferred: (ctx) => currentPreferences(ctx),
    },
  },
  changes: {
    async preferences(change, tx) {
      if (change.op === 'delete') return tx.put(ACCOUNT, ACCOUNT_KEYS.preferences, undefined);
      const current = await tx.get<Preferences>(ACCOUNT, ACCOUNT_KEYS.preferences);
      // None mirrored: the next read fetches the whole object.
      if (current)
        tx.put(ACCOUNT, ACCOUNT_KEYS.preferences, mergePreferences(current, change.data));
    },
    feature_config: (change, tx) =>
      tx.put(ACCOUNT, ACCOUNT_KEYS.featureConfig, change.op === 'upsert' ? change.data : undefined),
    organization: (change, tx) =>
      tx.put(ACCOUNT, ACCOUNT_KEYS.org, change.op === 'upsert' ? change.data : undefined),
  },
  watch: {
    // Tabs keep flags and preferences in their state: they get the new values with the event.
    async account(keys, { mirror, emit }) {
      const db = await mirror;
      if (!keys || keys.includes(ACCOUNT_KEYS.featureConfig)) {
        const config = await db.get<FeatureConfig>(ACCOUNT, ACCOUNT_KEYS.featureConfig);
        if (config) emit({ type: 'flags', flags: toFlags(config) });
      }
      if (!keys || keys.includes(ACCOUNT_KEYS.preferences)) {
        const preferences = await db.get<Preferences>(ACCOUNT, ACCOUNT_KEYS.preferences);
        if (preferences) emit({ type: 'preferences', preferences });
      }
    },
  },
  async refresh(ctx, variant) {
    const again = { background: true, announce: true };
    await Promise.all([
      ctx.reads.refetch(flagsRead(ctx, variant), again),
      ctx.reads.refetch(preferencesRead(ctx, variant), again),
    ]);
  },
});
