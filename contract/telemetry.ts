import { z } from 'zod';

/** POST /debug-logs. */
export const DebugLogBody = z
  .object({ logData: z.union([z.string().min(1).max(20_000), z.record(z.string(), z.unknown())]) })
  .strict();
export type DebugLogBody = z.infer<typeof DebugLogBody>;

/** POST /{product}-analytics/report, sent once per session (000 §3, §7). */
export const AnalyticsReportBody = z
  .object({
    adblocker_installed: z.boolean(),
    mp_info: z.object({
      event_name: z.string().min(1).max(200),
      opted_out: z.boolean().optional(),
      distinct_id: z.string().max(200),
      email: z.string().max(320),
      name: z.string().max(200),
    }),
    mp_error: z.string().max(2000).nullable().optional(),
  })
  .strict();
export type AnalyticsReportBody = z.infer<typeof AnalyticsReportBody>;
