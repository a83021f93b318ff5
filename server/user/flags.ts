import type { Db } from '../db/schema';
import { inTransaction } from '../db/tx';
import { recordChange } from '../sync/changes';

/** Flags off by default; every other known flag starts "on" (spec 000 §6). */
const OFF_BY_DEFAULT = new Set(['is_pricing', 'is_pulse_whatsapp_verification_enabled']);

/** The flags spec 000 §6 names, with the product filled in. */
export const knownFlags = (product: string): string[] => [
  `ask_${product}_copilot`,
  `ask_${product}_history`,
  `ask_${product}_upload`,
  `ask_${product}_dataset_selection_${product}_universe`,
  `ask_${product}_full_screen`,
  'is_pricing',
  'is_pulse_whatsapp_verification_enabled',
  'doc_full_screen_view',
  'doc_open_in_source',
  'doc_open_in_new_tab',
  'doc_sentiment_analysis',
  'doc_table_extraction',
  'doc_summarization',
  'doc_hide_source',
  'doc_share',
  'doc_download',
  'doc_delete',
  'doc_mark_as_read',
  'comments',
  'notebooks',
  'tags',
  'bookmarks',
  'webclips',
  'research',
  'my_feeds',
  'my_data',
  'search',
  'website_priority',
  'website_unfollow',
  'assistants',
  'report_generation',
  `${product}_report`,
  'report_open_research',
  // One flag per integration family (000 §6); the landing rule opens the first enabled one.
  'rss_news',
  'exchanges',
];

export const defaultFlagValue = (name: string) => (OFF_BY_DEFAULT.has(name) ? 'off' : 'on');

/**
 * Makes sure every known flag has a default; existing values (an operator may have changed
 * them) are left alone. Flags are product configuration, so this runs on every start.
 */
export const ensureFlagDefaults = async (db: Db, product: string) => {
  const rows = knownFlags(product).map((name) => ({ name, value: defaultFlagValue(name) }));
  await db
    .insertInto('feature_flag_defaults')
    .values(rows)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
};

/** Defaults with the user's overrides on top. */
export const flagsFor = async (db: Db, userId: string): Promise<Record<string, string>> => {
  const defaults = await db.selectFrom('feature_flag_defaults').selectAll().execute();
  const overrides = await db
    .selectFrom('feature_flag_overrides')
    .select(['name', 'value'])
    .where('user_id', '=', userId)
    .execute();
  const results: Record<string, string> = {};
  for (const row of [...defaults, ...overrides]) results[row.name] = row.value;
  return results;
};

/** Sets (or with `null` removes) one user's override and tells their devices. */
export const setFlagOverride = async (
  db: Db,
  userId: string,
  name: string,
  value: string | null,
  now: number,
) =>
  inTransaction(db, async (db) => {
    if (value === null) {
      await db
        .deleteFrom('feature_flag_overrides')
        .where('user_id', '=', userId)
        .where('name', '=', name)
        .execute();
    } else {
      await db
        .insertInto('feature_flag_overrides')
        .values({ user_id: userId, name, value })
        .onConflict((oc) => oc.columns(['user_id', 'name']).doUpdateSet({ value }))
        .execute();
    }
    await recordChange(
      db,
      userId,
      {
        entity: 'feature_config',
        entity_id: name,
        op: value === null ? 'delete' : 'upsert',
        data: { name, value },
      },
      now,
    );
  });
