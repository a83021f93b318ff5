import { telemetry } from '../../contract/telemetry';
import { defineWorkerDomain } from '../registry';

/**
 * Debug logs, the analytics report and events: mutations with no mirror effect, sent through the
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
    // An event (a click the spec counts) goes each time, through the same endpoint.
    'analytics.event': { endpoint: 'analyticsReport', orderKey: () => null },
  },
  changes: {},
});
