import { telemetry } from '../../contract/telemetry';
import { defineWorkerDomain } from '../registry';

/**
 * Debug logs and the analytics report: mutations with no mirror effect, sent through the
 * outbox so they survive going offline. Each entry is independent of the others.
 */
export const telemetryDomain = defineWorkerDomain(telemetry, {
  stores: {},
  mutations: {
    'log.debug': { endpoint: 'debugLogs', orderKey: () => null },
    'analytics.report': {
      endpoint: 'analyticsReport',
      orderKey: () => null,
      // Once per session (000 §7): later reports in the same session are dropped here.
      admit: (ctx) => ctx.claimAnalytics(),
    },
  },
  changes: {},
});
