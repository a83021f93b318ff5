import type { OpenAPIHono } from '@hono/zod-openapi';
import { Preferences } from '../../contract/user';
import { DEFAULT_PREFERENCES } from '../accounts';
import { reserveChangeSeq, writeChange } from '../changes';
import { transact, type AppDeps, type AppEnv } from '../context';
import type { Db } from '../db/schema';
import { iso } from '../time';
import { defineEndpoint } from './define';

const readPreferences = async (db: Db, userId: string): Promise<Preferences> => {
  const row = await db
    .selectFrom('preferences')
    .select('data')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return DEFAULT_PREFERENCES;
  // Stored JSON is re-read through the contract so a hand-edited row cannot break a client.
  const parsed = Preferences.safeParse(JSON.parse(row.data));
  return parsed.success ? parsed.data : DEFAULT_PREFERENCES;
};

/** /user/preferences and /onboarding/flags. */
export const registerUserRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  defineEndpoint(app, deps.product, 'preferences', async (c, { auth }) =>
    readPreferences(c.var.db, auth.user.id),
  );

  defineEndpoint(app, deps.product, 'updatePreferences', async (c, { body, auth }) =>
    transact(c, async (db) => {
      const now = deps.now();
      // The user row's lock first: a concurrent update of this user waits here, before its
      // read, and so merges onto this one's result instead of overwriting it.
      const seq = await reserveChangeSeq(db, auth.user.id);
      const current = await readPreferences(db, auth.user.id);
      // A patch: absent fields stay; overlay widths merge per overlay type.
      const next: Preferences = {
        nav_state: body.nav_state === undefined ? current.nav_state : body.nav_state,
        overlay_widths: { ...current.overlay_widths, ...body.overlay_widths },
      };
      await db
        .insertInto('preferences')
        .values({ user_id: auth.user.id, data: JSON.stringify(next), updated_at: iso(now) })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ data: JSON.stringify(next), updated_at: iso(now) }),
        )
        .execute();
      await writeChange(
        db,
        auth.user.id,
        seq,
        { entity: 'preferences', entity_id: auth.user.id, op: 'upsert', data: next },
        now,
      );
      return next;
    }),
  );

  defineEndpoint(app, deps.product, 'onboardingFlags', async (c, { auth }) => {
    const row = await c.var.db
      .selectFrom('onboarding_flags')
      .selectAll()
      .where('user_id', '=', auth.user.id)
      .executeTakeFirst();
    return {
      show_attributes_form: row ? row.show_attributes_form === 1 : true,
      show_search_modal: row ? row.show_search_modal === 1 : true,
    };
  });
};
