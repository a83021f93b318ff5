import type { SessionMetadata } from '../../contract/assistant';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { searchScope } from '../search';
import type { AskTarget, Viewer } from './ask-scope';

/**
 * A notebook as an assistant scope (issue 21: "a notebook is an assistant scope"): the
 * question is answered from that notebook's notes alone. Notes are documents of the user's own
 * notes source (notebooks/search-index.ts), so "My Data" holds them and the target is those
 * documents, as a document scope (a follow-up asks over the same notes). The notebooks domain
 * comes after this one in the server's order, so it registers how a notebook's notes are found
 * (notebooks/ask-scope.ts); a notebook the user does not hold is a 404, like any other scope.
 */

export type NotebookNotes = (
  db: Db,
  viewer: Viewer,
  notebookId: string,
) => Promise<{ name: string; documentIds: string[] } | null>;

let notesOf: NotebookNotes | null = null;

/** Called once by the notebooks domain. */
export const registerNotebookScope = (find: NotebookNotes) => {
  notesOf = find;
};

export async function notebookTarget(
  db: Db,
  viewer: Viewer,
  notebookId: string,
  meta: Omit<SessionMetadata, 'type' | 'document_id'>,
): Promise<AskTarget> {
  const found = notesOf ? await notesOf(db, viewer, notebookId) : null;
  if (!found) throw new ApiError(404, 'not_found', `no such notebook: ${notebookId}`);
  const label = `the notebook “${found.name}”`;
  if (found.documentIds.length === 0) {
    const message = `${label} holds no notes yet`;
    throw new ApiError(400, 'bad_request', `notebook_id: ${message}`, [
      { path: 'notebook_id', message },
    ]);
  }
  return {
    scope: await searchScope(db, viewer, {}),
    documentIds: found.documentIds,
    type: 'document',
    metadata: { ...meta, type: 'document', document_id: found.documentIds },
    label,
  };
}
