import { z } from 'zod';
import { Ok } from './common';
import { boundedJsonObject, defineDomain, endpoint, LIMITS, op, text } from './define';

/** POST /debug-logs: a message or a JSON object, bounded in size and depth. */
export const DebugLogBody = z
  .object({
    logData: z.union([
      text('logData', LIMITS.jsonChars).min(1, { message: 'logData must not be empty' }),
      boundedJsonObject('logData'),
    ]),
  })
  .strict();
export type DebugLogBody = z.infer<typeof DebugLogBody>;

/** POST /{product}-analytics/report, sent once per session (000 §3, §7). */
export const AnalyticsReportBody = z
  .object({
    adblocker_installed: z.boolean(),
    mp_info: z
      .object({
        event_name: text('mp_info.event_name', LIMITS.name).min(1),
        opted_out: z.boolean().optional(),
        distinct_id: text('mp_info.distinct_id', LIMITS.name),
        email: text('mp_info.email', LIMITS.email),
        name: text('mp_info.name', LIMITS.name),
      })
      .strict(),
    mp_error: text('mp_error').nullable().optional(),
  })
  .strict();
export type AnalyticsReportBody = z.infer<typeof AnalyticsReportBody>;

/**
 * The analytics events the spec names (001 §9: the assistant's attach button sends
 * `ask{product}_upload_clicked`), each sent every time, unlike the once-per-session report.
 */
export const analyticsEventName = (product: string, event: 'upload_clicked') =>
  `ask${product}_${event}`;

/** Debug logs, the analytics report and analytics events. */
export const telemetry = defineDomain({
  name: 'telemetry',
  endpoints: {
    debugLogs: endpoint({
      method: 'post',
      path: '/debug-logs',
      auth: true,
      body: DebugLogBody,
      response: Ok,
      status: 200,
      summary: 'Client debug log',
    }),
    analyticsReport: endpoint({
      method: 'post',
      path: '/{product}-analytics/report',
      auth: true,
      body: AnalyticsReportBody,
      response: Ok,
      status: 200,
      summary: 'Analytics report, once per session',
    }),
  },
  ops: {
    'log.debug': op(DebugLogBody, z.void()),
    'analytics.report': op(AnalyticsReportBody, z.void()),
    /** An analytics event: the report's body and endpoint, sent each time it happens. */
    'analytics.event': op(AnalyticsReportBody, z.void()),
  },
  changes: {},
  stores: [],
});
