import { defaultFlagValue, knownFlags } from '../../contract/user';
import type { Db } from '../db/schema';
import { inTransaction } from '../db/tx';
import { recordChange } from '../sync';

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
