import { sql } from 'kysely';
import type { PricingFeature, PricingMessage } from '../../contract/uploads';
import type { Db } from '../db/schema';
import { storageUsed } from './files';
import type { PlanLimits, UploadSettings } from './settings';

/**
 * The pricing gate (000 §6, 002 §6-9): each gated feature is eligible or not by the limits of
 * the plan on the user's organisation (`organizations.plan`, migration 0018; 'free' unless
 * set; limits are configuration, settings.ts). No payment provider is called: the upgrade
 * action leads to CUSTOMER_PORTAL_URL when configured, else to the storage settings.
 */

/** Counts what a feature is limited by (notebooks register theirs when that domain lands). */
const usageCounters = new Map<PricingFeature, (db: Db, userId: string) => Promise<number>>();
export const registerFeatureUsage = (
  feature: PricingFeature,
  count: (db: Db, userId: string) => Promise<number>,
) => usageCounters.set(feature, count);

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
/** Bytes in words, base 1024 (002 §9). */
export const sizeInWords = (bytes: number) => {
  let n = bytes;
  let unit = 0;
  while (n >= 1024 && unit < UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${Number.isInteger(n) ? n : n.toFixed(2).replace(/\.?0+$/, '')} ${UNITS[unit]}`;
};

export type Plan = { name: string; limits: PlanLimits };

export const planOf = async (db: Db, userId: string, settings: UploadSettings): Promise<Plan> => {
  const { rows } = await sql<{ plan: string | null }>`
    select o.plan as plan from users u join organizations o on o.id = u.organization_id
    where u.id = ${userId}`.execute(db);
  const name = rows[0]?.plan ?? 'free';
  const limits = settings.plans[name] ?? settings.plans.free;
  return { name: settings.plans[name] ? name : 'free', limits };
};

const planLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The storage upsell (also the message of a refused upload). */
export const storageMessage = (
  plan: Plan,
  used: number,
  settings: UploadSettings,
): PricingMessage => ({
  header: 'Storage limit reached',
  body: `Your ${planLabel(plan.name)} plan includes ${sizeInWords(plan.limits.storageBytes)} of storage and ${sizeInWords(used)} is in use.`,
  subtext: 'Upgrade your plan or delete files to upload more.',
  highlights: ['Upgrade your plan', 'delete files'],
  action: settings.customerPortalUrl ? 'upgrade' : 'storage',
});

export const notebookMessage = (plan: Plan, settings: UploadSettings): PricingMessage => ({
  header: 'Notebook limit reached',
  body: `Your ${planLabel(plan.name)} plan includes ${plan.limits.notebooks} notebooks.`,
  subtext: 'Upgrade your plan to create more notebooks.',
  highlights: ['Upgrade your plan'],
  action: settings.customerPortalUrl ? 'upgrade' : 'feed_manager',
});

export const storageStanding = async (db: Db, userId: string, settings: UploadSettings) => {
  const plan = await planOf(db, userId, settings);
  const used = await storageUsed(db, userId);
  const limit = plan.limits.storageBytes;
  return {
    plan,
    used: used.bytes,
    files: used.files,
    limit,
    remaining: Math.max(0, limit - used.bytes),
  };
};

/** Every gated feature: eligible or not, with its message when not. */
export const eligibility = async (db: Db, userId: string, settings: UploadSettings) => {
  const storage = await storageStanding(db, userId, settings);
  const notebooks = (await usageCounters.get('add_notebook')?.(db, userId)) ?? 0;
  const canStore = storage.used < storage.limit;
  const canNotebook = notebooks < storage.plan.limits.notebooks;
  return {
    add_to_needldrive: {
      isEligible: canStore,
      message: canStore ? null : storageMessage(storage.plan, storage.used, settings),
    },
    add_notebook: {
      isEligible: canNotebook,
      message: canNotebook ? null : notebookMessage(storage.plan, settings),
    },
  } satisfies Record<PricingFeature, { isEligible: boolean; message: PricingMessage | null }>;
};
