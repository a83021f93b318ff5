import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import type { FileStorage } from '../storage';
import '../uploads';
import './tables';

/**
 * The caller's own processed upload whose document is `deeplink`; 404 for anything else (a
 * document of someone else, of a feed, still processing, or none), so no one learns whether
 * another user's document exists.
 */
export async function ownUpload(db: Db, userId: string, deeplink: string) {
  const row = await db
    .selectFrom('upload_files')
    .select(['key', 'name', 'mime_type', 'num_pages', 'size', 'document_id'])
    .where('user_id', '=', userId)
    .where('document_id', '=', deeplink)
    .where('status', '=', 'COMPLETED')
    .executeTakeFirst();
  if (!row)
    throw new ApiError(404, 'not_found', `no such document among your uploads: ${deeplink}`);
  return row;
}

/** A stored file's bytes (extraction reads a PDF whole; uploads are bounded in size). */
export async function readStored(storage: FileStorage, key: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await storage.get(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * The storage key of the summary PDF of the user's document, if one was written: what deleting
 * the uploaded document deletes from storage (registered with onUploadedDocumentDeleted; the
 * summary's row goes with the document by foreign key).
 */
export async function summaryKeysOf(db: Db, userId: string, documentId: string) {
  const rows = await db
    .selectFrom('document_summaries')
    .select('storage_key')
    .where('user_id', '=', userId)
    .where('document_id', '=', documentId)
    .where('storage_key', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.storage_key ? [r.storage_key] : []));
}
