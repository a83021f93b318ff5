import type { UploadedFile, UploadStatus } from '../../contract/uploads';
import type { Database, Db } from '../db/schema';
import './tables';

export type FileRow = Database['upload_files'];

/** A row as the contract's UploadedFile. */
export const toUploadedFile = (row: FileRow, bucket: string): UploadedFile => ({
  id: row.client_id,
  name: row.name,
  mime_type: row.mime_type,
  bucket,
  key: row.key,
  status: row.status as UploadStatus,
  progress: row.size === null ? 0 : 100,
  size: row.size === null ? null : Number(row.size),
  error: row.error,
  feed_id: row.feed_id,
  deeplink: row.document_id,
  source: row.source,
  num_pages: row.num_pages === null ? null : Number(row.num_pages),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** The user's files with these keys (others' keys are simply absent). */
export const filesByKeys = async (db: Db, userId: string, keys: readonly string[]) =>
  keys.length === 0
    ? []
    : db
        .selectFrom('upload_files')
        .selectAll()
        .where('user_id', '=', userId)
        .where('key', 'in', [...keys])
        .execute();

/** Bytes the user's stored files take, and how many there are. */
export const storageUsed = async (db: Db, userId: string) => {
  const row = await db
    .selectFrom('upload_files')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'),
      eb.fn.count<number>('key').as('files'),
    ])
    .where('user_id', '=', userId)
    .where('size', 'is not', null)
    .executeTakeFirstOrThrow();
  return { bytes: Number(row.bytes), files: Number(row.files) };
};
