import { z } from 'zod';

/** Entities the change feed carries; later issues add theirs. */
export const ChangeEntity = z.enum([
  'preferences',
  'notification',
  'feature_config',
  'organization',
]);
export type ChangeEntity = z.infer<typeof ChangeEntity>;

/** One entry of the per-user change sequence. `seq` is strictly increasing per user. */
export const Change = z.object({
  seq: z.number().int().positive(),
  entity: ChangeEntity,
  entity_id: z.string(),
  op: z.enum(['upsert', 'delete']),
  data: z.unknown(),
  created_at: z.string(),
});
export type Change = z.infer<typeof Change>;

/** GET /sync/changes?after=cursor&limit=n */
export const ChangesQuery = z.object({
  after: z.coerce
    .number({ message: 'after must be a number' })
    .int({ message: 'after must be a whole number' })
    .min(0, { message: 'after must be 0 or more' })
    .default(0),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be between 1 and 500' })
    .max(500, { message: 'limit must be between 1 and 500' })
    .default(200),
});
export type ChangesQuery = z.infer<typeof ChangesQuery>;

export const ChangesPage = z.object({
  changes: z.array(Change),
  /** Pass back as `after` to continue. */
  cursor: z.number().int().min(0),
  has_more: z.boolean(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;
