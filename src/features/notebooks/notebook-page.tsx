import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { textToNoteDocument, type Note } from '../../../contract/notebooks';
import { ShellLink } from '../../layout/shell-link';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { RetryAlert } from '../../shell/retry-alert';
import { useShell } from '../../shell-context';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { showToast } from '../../shell/toasts';
import { NoteDocumentView, NoteEditor } from './note-view';
import { newId, useNote, useNotebooks, useNotes } from './notebook-store';
import './notebooks.css';

/**
 * /notebooks/{source}[/{sub}]: the notes of notebook `source`, newest first, each edited in
 * place with autosave; `sub`, when given, is one note shown alone. "New note" adds an empty
 * note at once (optimistic). From the mirror: it opens offline.
 */
export function NotebookPage() {
  const params = useParams({ strict: false }) as { source?: string; subcategory?: string };
  const notebookId = params.source ?? '';
  const { client, product } = useShell();
  const notebooks = useNotebooks();
  const notes = useNotes(notebookId);
  const [deleting, setDeleting] = useState<Note | null>(null);
  const notebook = notebooks.data?.find((n) => n.notebook_id === notebookId);
  const r = routesFor(product);

  if (notebooks.data !== null && !notebook) {
    return (
      <section className="notebook-page">
        <p>This notebook does not exist, or it was deleted.</p>
        <ShellLink to={r.notebooks}>All notebooks</ShellLink>
      </section>
    );
  }
  const addNote = () => {
    client
      .call('notes.create', {
        id: newId(),
        notebook_id: notebookId,
        name: 'Untitled note',
        document: textToNoteDocument(''),
      })
      .catch((failure: unknown) => showToast('error', userMessage(failure)));
  };
  const remove = (note: Note) => {
    setDeleting(null);
    client
      .call('notes.delete', { id: note.id })
      .catch((failure: unknown) => showToast('error', userMessage(failure)));
  };
  const shown = params.subcategory
    ? (notes.data ?? []).filter((n) => n.id === params.subcategory)
    : (notes.data ?? []);

  return (
    <section className="notebook-page" aria-label={notebook?.notebook_name ?? 'Notebook'}>
      <header className="notebook-page-header">
        <h2>{notebook?.notebook_name ?? ''}</h2>
        <ShellLink to={r.notebooks}>All notebooks</ShellLink>
        <button type="button" className="button primary small" onClick={addNote}>
          New note
        </button>
      </header>
      {notes.error !== null && notes.data === null ? (
        <RetryAlert error={notes.error} onRetry={notes.reload} />
      ) : notes.data === null ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : shown.length === 0 ? (
        <p className="muted">
          No notes here yet. Add one, or save a document or an answer to this notebook.
        </p>
      ) : (
        <ul className="note-list" aria-label="Notes">
          {shown.map((note) => (
            <li key={note.id}>
              <NoteEditor note={note} onDelete={() => setDeleting(note)} />
            </li>
          ))}
        </ul>
      )}
      {deleting ? (
        <ConfirmDialog
          title={`Delete ${deleting.name || 'this note'}?`}
          action="Delete note"
          onConfirm={() => remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          The note is deleted from this notebook.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** /preview/{product}_notebooks/{id}: one note, read only, with a link to its notebook. */
export function NotePreviewPage() {
  const params = useParams({ strict: false }) as { id?: string };
  const { product } = useShell();
  const note = useNote(params.id ?? '');
  if (note.error !== null && note.data === null) {
    return <RetryAlert error={note.error} onRetry={note.reload} />;
  }
  if (!note.data) {
    return (
      <p className="muted" role="status">
        {note.loaded ? 'This note does not exist, or it was deleted.' : 'Loading…'}
      </p>
    );
  }
  return (
    <article className="note-preview" aria-label={note.data.name}>
      <h2>{note.data.name}</h2>
      <NoteDocumentView document={note.data.document} />
      <ShellLink to={routesFor(product).content('notebooks', note.data.notebook_id)}>
        Open its notebook
      </ShellLink>
    </article>
  );
}
