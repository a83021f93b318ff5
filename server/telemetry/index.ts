import { defineServerDomain } from '../domain';
import { telemetryMigrations } from './migrations';
import { registerTelemetryRoutes } from './routes';

/** Debug logs and analytics reports, kept for the operator. */
export const telemetryDomain = defineServerDomain({
  name: 'telemetry',
  register: registerTelemetryRoutes,
  migrations: telemetryMigrations,
});
