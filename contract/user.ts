import { z } from 'zod';
import { NAV_STATES } from './constants';
import { defineDomain, Empty, endpoint, op } from './define';

export * from './feature-flags';

export const NavState = z.enum(NAV_STATES);
export type NavState = z.infer<typeof NavState>;

/**
 * Overlay types whose width is remembered (000 §2): preview, ask-{product}, custom-feed,
 * portfolio, report. `{product}` is configuration, so the contract accepts `ask-` plus a product
 * name and the server holds it to its own.
 */
const OVERLAY_WIDTH_KEY = /^(preview|custom-feed|portfolio|report|ask-[a-z][a-z0-9-]{0,39})$/;
/** At most one width per overlay type. */
export const MAX_OVERLAY_WIDTHS = 5;
const OverlayWidths = z
  .record(
    z.string().max(64),
    z
      .number({ message: 'overlay widths must be numbers' })
      .min(0, { message: 'overlay widths must be between 0 and 100' })
      .max(100, { message: 'overlay widths must be between 0 and 100' }),
    { message: 'overlay_widths keys must be overlay types' },
  )
  .superRefine((widths, ctx) => {
    const keys = Object.keys(widths);
    const unknown = keys.find((key) => !OVERLAY_WIDTH_KEY.test(key));
    if (unknown !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [unknown],
        message:
          'overlay_widths keys must be overlay types: preview, ask-{product}, custom-feed, portfolio, report',
      });
    } else if (keys.length > MAX_OVERLAY_WIDTHS) {
      ctx.addIssue({
        code: 'custom',
        message: `overlay_widths holds at most ${MAX_OVERLAY_WIDTHS} overlay types`,
      });
    }
  });

/** User preferences (field list "not shown" in the spec: designed here). Cached forever. */
export const Preferences = z.object({
  nav_state: NavState.nullable(),
  overlay_widths: OverlayWidths,
  /** Opening a document marks it read (absent: yes). The reader's own setting (issue 18). */
  open_marks_read: z.boolean().optional(),
});
export type Preferences = z.infer<typeof Preferences>;

export const PreferencesPatch = z
  .object({
    nav_state: NavState.nullable().optional(),
    overlay_widths: OverlayWidths.optional(),
    open_marks_read: z.boolean().optional(),
  })
  .strict();
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;

export const EMPTY_PREFERENCES: Preferences = { nav_state: null, overlay_widths: {} };

/**
 * The preferences merge, the one rule for server, worker and change feed: absent fields stay,
 * overlay widths merge per overlay type.
 */
export const mergePreferences = (base: Preferences, patch: PreferencesPatch): Preferences => {
  const merged: Preferences = {
    nav_state: patch.nav_state === undefined ? base.nav_state : patch.nav_state,
    overlay_widths: { ...base.overlay_widths, ...patch.overlay_widths },
  };
  const openMarksRead = patch.open_marks_read ?? base.open_marks_read;
  if (openMarksRead !== undefined) merged.open_marks_read = openMarksRead;
  return merged;
};

export const OrgRole = z.enum(['owner', 'admin', 'member']);

/** GET /organizations/self: the caller's organisation and what they may do in it. */
export const OrganizationSelf = z.object({
  id: z.string(),
  name: z.string(),
  role: OrgRole,
  permissions: z.array(z.string()),
  members_count: z.number().int().nonnegative(),
});
export type OrganizationSelf = z.infer<typeof OrganizationSelf>;

export const Organization = z.object({ id: z.string(), name: z.string(), role: OrgRole });
export const OrganizationList = z.object({ results: z.array(Organization) });
export type OrganizationList = z.infer<typeof OrganizationList>;

/** GET /feature/config: flag name to value; a flag is on only when its value is "on". */
export const FeatureConfig = z.object({ results: z.record(z.string(), z.string()) });
export type FeatureConfig = z.infer<typeof FeatureConfig>;

/** The flag map the UI reads: true only for "on". */
export const FeatureFlags = z.record(z.string(), z.boolean());
export type FeatureFlags = z.infer<typeof FeatureFlags>;

/** A flag is true only when its value is "on" (000 §3). */
export const toFlags = (config: FeatureConfig): FeatureFlags =>
  Object.fromEntries(Object.entries(config.results).map(([k, v]) => [k, v === 'on']));

/** GET /onboarding/flags (fresh for 20 s). */
export const OnboardingFlags = z.object({
  show_attributes_form: z.boolean(),
  show_search_modal: z.boolean(),
});
export type OnboardingFlags = z.infer<typeof OnboardingFlags>;

/** The 'account' mirror store's records, one per key. */
export const ACCOUNT_KEYS = {
  preferences: 'preferences',
  featureConfig: 'feature_config',
  org: 'org',
  onboarding: 'onboarding',
} as const;

/** The signed-in user's account: preferences, feature flags, organisation, onboarding. */
export const user = defineDomain({
  name: 'user',
  endpoints: {
    organizations: endpoint({
      method: 'get',
      path: '/organizations',
      auth: true,
      response: OrganizationList,
      status: 200,
      summary: "The caller's organisations",
    }),
    organizationSelf: endpoint({
      method: 'get',
      path: '/organizations/self',
      auth: true,
      response: OrganizationSelf,
      status: 200,
      summary: "The caller's organisation with permissions",
    }),
    preferences: endpoint({
      method: 'get',
      path: '/user/preferences',
      auth: true,
      response: Preferences,
      status: 200,
      summary: 'User preferences (nav_state, overlay widths)',
    }),
    updatePreferences: endpoint({
      method: 'put',
      path: '/user/preferences',
      auth: true,
      body: PreferencesPatch,
      response: Preferences,
      status: 200,
      summary: 'Update user preferences (a patch: absent fields stay, widths merge per type)',
    }),
    featureConfig: endpoint({
      method: 'get',
      path: '/feature/config',
      auth: true,
      response: FeatureConfig,
      status: 200,
      summary: 'Feature flags: per-user overrides over defaults',
    }),
    onboardingFlags: endpoint({
      method: 'get',
      path: '/onboarding/flags',
      auth: true,
      response: OnboardingFlags,
      status: 200,
      summary: 'Onboarding flags',
    }),
  },
  ops: {
    'flags.get': op(Empty, FeatureFlags),
    'preferences.get': op(Empty, Preferences),
    'preferences.update': op(PreferencesPatch, Preferences),
    'org.self': op(Empty, OrganizationSelf),
    'onboarding.flags': op(Empty, OnboardingFlags),
  },
  changes: {
    /** What changed (the patch applied), never the whole object: rows stay small. */
    preferences: PreferencesPatch,
    feature_config: FeatureConfig,
    organization: OrganizationSelf,
  },
  stores: ['account'],
});
