import { DEMO_ACCOUNT, DEMO_ANALYST, findUserByEmail } from '../auth';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { iso } from '../time';
import { addNotification } from './queries';

const HOUR_MS = 3600 * 1000;

/**
 * A welcome in each demo account's inbox. The demo user's other notifications are about
 * documents of its feed, written by the demo corpus's seed (server/demo/seed.ts) once they
 * exist. Runs after the auth seed (domains.ts order), which made both accounts.
 */
export const seedNotifications = async (db: Db, { now }: SeedContext) => {
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  const analyst = await findUserByEmail(db, DEMO_ANALYST.email);
  if (!demo || !analyst) throw new Error('notifications seed: the auth seed made no demo accounts');
  await addNotification(
    db,
    demo.id,
    {
      title: 'Welcome to Demo Research',
      body: 'Your workspace is ready: explore feeds, search and the assistant.',
      link: '/home',
      read: true,
      at: iso(now - 30 * 24 * HOUR_MS),
    },
    now,
  );
  await addNotification(
    db,
    analyst.id,
    {
      title: 'Welcome to Demo Research',
      body: 'Demo User added you to the organisation.',
      link: '/home',
      at: iso(now - HOUR_MS),
    },
    now,
  );
};
