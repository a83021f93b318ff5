import { dequal } from 'dequal';
import {
  EMPTY_PREFERENCES,
  mergePreferences,
  Preferences,
  type PreferencesPatch,
} from '../../contract/user';
import type { Db } from '../db/schema';
import { validationError } from '../errors';
import { lockUserRow, recordChange } from '../sync';
import { iso } from '../time';

/**
 * The overlay types whose widths this server remembers (000 §2). The contract accepts `ask-`
 * with any product name; the server holds it to its own.
 */
export const overlayTypes = (product: string): string[] => [
  'preview',
  `ask-${product}`,
  'custom-feed',
  'portfolio',
  'report',
];

/** A 400 naming each overlay_widths key that is not one of this product's overlay types. */
export const checkOverlayTypes = (patch: PreferencesPatch, product: string): void => {
  const known = overlayTypes(product);
  const foreign = Object.keys(patch.overlay_widths ?? {}).filter((key) => !known.includes(key));
  if (!foreign.length) return;
  throw validationError(
    foreign.map((key) => ({
      code: 'custom',
      path: ['overlay_widths', key],
      message: `${key} is not an overlay type: expected one of ${known.join(', ')}`,
    })),
  );
};

/**
 * Stored preferences as the contract's shape for this product. A row that does not fit (written
 * by an older server, or for another product name) keeps what still fits.
 */
const fromStored = (raw: unknown, product: string): Preferences => {
  const parsed = Preferences.safeParse(raw);
  const known = overlayTypes(product);
  if (parsed.success) {
    const widths = Object.entries(parsed.data.overlay_widths).filter(([k]) => known.includes(k));
    const kept: Preferences = {
      nav_state: parsed.data.nav_state,
      overlay_widths: Object.fromEntries(widths),
    };
    if (parsed.data.open_marks_read !== undefined) {
      kept.open_marks_read = parsed.data.open_marks_read;
    }
    return kept;
  }
  const record = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const navOnly = Preferences.safeParse({ nav_state: record.nav_state, overlay_widths: {} });
  const widths = Object.entries((record.overlay_widths ?? {}) as Record<string, unknown>).filter(
    ([key, width]) =>
      known.includes(key) &&
      Preferences.safeParse({ nav_state: null, overlay_widths: { [key]: width } }).success,
  );
  return {
    nav_state: navOnly.success ? navOnly.data.nav_state : null,
    overlay_widths: Object.fromEntries(widths) as Preferences['overlay_widths'],
  };
};

export const readPreferences = async (
  db: Db,
  userId: string,
  product: string,
): Promise<Preferences> => {
  const row = await db
    .selectFrom('preferences')
    .select('data')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? fromStored(JSON.parse(row.data), product) : EMPTY_PREFERENCES;
};

/**
 * Applies a patch (mergePreferences: absent fields stay, widths merge per overlay type) and
 * records what changed: the patch, never the whole object, so change rows stay small. A patch
 * that changes nothing writes nothing. Call inside the request's transaction.
 */
export const updatePreferences = async (
  db: Db,
  userId: string,
  patch: PreferencesPatch,
  product: string,
  now: number,
): Promise<Preferences> => {
  // The user row's lock first: a concurrent update of this user waits here, before its read,
  // and so merges onto this one's result instead of overwriting it.
  await lockUserRow(db, userId);
  const current = await readPreferences(db, userId, product);
  const next = mergePreferences(current, patch);
  if (dequal(next, current)) return current;
  const data = JSON.stringify(next);
  await db
    .insertInto('preferences')
    .values({ user_id: userId, data, updated_at: iso(now) })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: iso(now) }))
    .execute();
  await recordChange(
    db,
    userId,
    { entity: 'preferences', entity_id: userId, op: 'upsert', data: patch },
    now,
  );
  return next;
};
