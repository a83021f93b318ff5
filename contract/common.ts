import './zod-jitless';
import { z } from 'zod';

/** Every error the API returns: a code, a human message, and for 400s the fields at fault. */
export const ErrorBody = z.object({
  error: z.enum([
    'bad_request',
    'unauthorized',
    'token_expired',
    'forbidden',
    'not_found',
    'conflict',
    'rate_limited',
    'internal',
  ]),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Ok = z.object({ ok: z.literal(true), message: z.string().optional() });
export type Ok = z.infer<typeof Ok>;

/** ISO-8601 timestamps on the wire. */
export const Timestamp = z.string().datetime({ offset: true });
