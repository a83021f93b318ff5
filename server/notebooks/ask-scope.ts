import type { Db } from '../db/schema';
import { dedupeKey, notesSourceKey } from './search-index';

/**
 * A notebook as the assistant's scope (assistant/notebook-scope.ts): its name and the
 * documents its notes are kept as, or null when the user holds no notebook of that id (another
 * user's notebook included: every read is by the user's id).
 */
export async function notebookNotes(
  db: Db,
  viewer: { userId: string; product: string },
  notebookId: string,
): Promise<{ name: string; documentIds: string[] } | null> {
  const { userId, product } = viewer;
  const notebook = await db
    .selectFrom('notebooks')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .where('id', '=', notebookId)
    .executeTakeFirst();
  if (!notebook) return null;
  const notes = await db
    .selectFrom('notes')
    .select('id')
    .where('user_id', '=', userId)
    .where('notebook_id', '=', notebookId)
    .execute();
  if (notes.length === 0) return { name: notebook.name, documentIds: [] };
  const docs = await db
    .selectFrom('documents as d')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .select('d.id')
    .where('s.key', '=', notesSourceKey(product, userId))
    .where('d.owner_user_id', '=', userId)
    .where(
      'd.dedupe_key',
      'in',
      notes.map((n) => dedupeKey(n.id)),
    )
    .orderBy('d.id')
    .execute();
  return { name: notebook.name, documentIds: docs.map((d) => d.id) };
}
