import './tables';
import { defineServerDomain } from '../domain';
import { notificationMigrations } from './migrations';
import { registerNotificationRoutes } from './routes';
import { seedNotifications } from './seed';

/**
 * Notifications: the worked example of a server domain. Its folder holds everything it adds:
 * routes.ts (the endpoints of contract/notifications.ts), queries.ts (reads and writes,
 * including the change-log entries the worker pulls), migrations.ts, seed.ts; this file is
 * the one line server/domains.ts registers.
 */
export { addNotification } from './queries';

export const notificationsDomain = defineServerDomain({
  name: 'notifications',
  register: registerNotificationRoutes,
  migrations: notificationMigrations,
  seed: seedNotifications,
});
