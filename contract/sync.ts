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
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export type ChangesQuery = z.infer<typeof ChangesQuery>;

export const ChangesPage = z.object({
  changes: z.array(Change),
  /** Pass back as `after` to continue. */
  cursor: z.number().int().min(0),
  has_more: z.boolean(),
});
export type ChangesPage = z.infer<typeof ChangesPage>;
