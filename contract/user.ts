import { z } from 'zod';
import { NAV_STATES } from './constants';

export const NavState = z.enum(NAV_STATES);
export type NavState = z.infer<typeof NavState>;

/** User preferences (field list "not shown" in the spec: designed here). Cached forever. */
export const Preferences = z.object({
  nav_state: NavState.nullable(),
  overlay_widths: z.record(z.string(), z.number().min(0).max(100)),
});
export type Preferences = z.infer<typeof Preferences>;

export const PreferencesPatch = z
  .object({
    nav_state: NavState.nullable().optional(),
    overlay_widths: z.record(z.string(), z.number().min(0).max(100)).optional(),
  })
  .strict();
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;

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

/** GET /onboarding/flags (fresh for 20 s). */
export const OnboardingFlags = z.object({
  show_attributes_form: z.boolean(),
  show_search_modal: z.boolean(),
});
export type OnboardingFlags = z.infer<typeof OnboardingFlags>;

export const Notification = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof Notification>;

/** GET /notifications?page=N: page size 20; ask for the next page only after a full one. */
export const NotificationsQuery = z.object({
  page: z.coerce
    .number({ message: 'page must be a number' })
    .int({ message: 'page must be a whole number' })
    .min(1, { message: 'page must be 1 or more' })
    .default(1),
});
export const NotificationsPage = z.object({
  results: z.array(Notification),
  page: z.number().int().min(1),
  page_size: z.number().int(),
  total: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type NotificationsPage = z.infer<typeof NotificationsPage>;

export const MarkNotificationsReadBody = z
  .object({ ids: z.array(z.string().min(1)).min(1, { message: 'ids must not be empty' }).max(100) })
  .strict();
export type MarkNotificationsReadBody = z.infer<typeof MarkNotificationsReadBody>;
export const MarkNotificationsReadResult = z.object({ updated: z.number().int().nonnegative() });
