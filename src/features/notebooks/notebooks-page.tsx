import { useState } from 'react';
import {
  NOTEBOOK_NAME_MAX,
  notebookNameProblem,
  notebookOffer,
  type Notebook,
} from '../../../contract/notebooks';
import { ShellLink } from '../../layout/shell-link';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { RetryAlert } from '../../shell/retry-alert';
import { useShell } from '../../shell-context';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { showToast } from '../../shell/toasts';
import { useCreateNotebook, useNotebooks } from './notebook-store';
import { Upsell } from './upsell';
import './notebooks.css';

/**
 * /notebooks: the user's notebooks, the default first, each with its count of notes; create
 * (optimistic, rolled back with the server's message), rename in place, delete after asking.
 * Read from the mirror: it opens offline, and every tab shows a change at once.
 */
export function NotebooksPage() {
  const notebooks = useNotebooks();
  const [name, setName] = useState('');
  const all = notebooks.data ?? [];
  const offer = notebookOffer(name, all);
  const problem = name.trim() ? notebookNameProblem(name) : null;
  const exists = name.trim() !== '' && !problem && offer === null;

  const gate = useCreateNotebook();
  const create = () => {
    if (!offer) return;
    void gate
      .create(offer, (failure: unknown) => showToast('error', userMessage(failure)))
      .then((id) => {
        if (id) setName('');
      });
  };

  return (
    <section className="notebooks-page" aria-label="Notebooks">
      <form
        className="notebook-create"
        onSubmit={(event) => {
          event.preventDefault();
          create();
        }}
      >
        <input
          aria-label="New notebook name"
          placeholder="New notebook"
          maxLength={NOTEBOOK_NAME_MAX * 2}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="button primary small" disabled={!offer}>
          Create notebook
        </button>
        {problem ? <p className="field-error">{problem}</p> : null}
        {exists ? <p className="field-error">A notebook of that name exists.</p> : null}
      </form>
      {gate.upsell ? <Upsell message={gate.upsell} onDismiss={gate.dismiss} /> : null}
      {notebooks.error !== null && notebooks.data === null ? (
        <RetryAlert error={notebooks.error} onRetry={notebooks.reload} />
      ) : notebooks.data === null ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : all.length === 0 ? (
        <p className="muted">
          No notebooks yet. Create one above, or save a note from a document or an answer.
        </p>
      ) : (
        <ul className="notebook-list" aria-label="Your notebooks">
          {all.map((notebook) => (
            <NotebookRow key={notebook.notebook_id} notebook={notebook} all={all} />
          ))}
        </ul>
      )}
    </section>
  );
}

function NotebookRow(props: { notebook: Notebook; all: readonly Notebook[] }) {
  const { client, product } = useShell();
  const { notebook } = props;
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const others = props.all.filter((n) => n.notebook_id !== notebook.notebook_id);
  const next = renaming === null ? null : notebookOffer(renaming, others);

  const rename = () => {
    if (next === null || next === notebook.notebook_name) {
      setRenaming(null);
      return;
    }
    setRenaming(null);
    client
      .call('notebooks.rename', { id: notebook.notebook_id, name: next })
      .catch((failure: unknown) => showToast('error', userMessage(failure)));
  };
  const remove = () => {
    setConfirming(false);
    client
      .call('notebooks.delete', { id: notebook.notebook_id })
      .catch((failure: unknown) => showToast('error', userMessage(failure)));
  };

  return (
    <li className="notebook-row">
      {renaming !== null ? (
        <form
          className="notebook-rename"
          onSubmit={(event) => {
            event.preventDefault();
            rename();
          }}
        >
          <input
            aria-label={`New name for ${notebook.notebook_name}`}
            maxLength={NOTEBOOK_NAME_MAX * 2}
            value={renaming}
            onChange={(event) => setRenaming(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setRenaming(null);
            }}
            autoFocus
          />
          <button type="submit" className="button primary small" disabled={next === null}>
            Save
          </button>
        </form>
      ) : (
        <ShellLink to={routesFor(product).content('notebooks', notebook.notebook_id)}>
          {notebook.notebook_name}
        </ShellLink>
      )}
      <span className="muted notebook-count">
        {notebook.notes === 1 ? '1 note' : `${notebook.notes} notes`}
      </span>
      {notebook.default ? <span className="pill">Default</span> : null}
      <button
        type="button"
        className="button secondary small"
        aria-label={`Rename ${notebook.notebook_name}`}
        onClick={() => setRenaming(notebook.notebook_name)}
      >
        Rename
      </button>
      <button
        type="button"
        className="button secondary small danger"
        aria-label={`Delete ${notebook.notebook_name}`}
        onClick={() => setConfirming(true)}
      >
        Delete
      </button>
      {confirming ? (
        <ConfirmDialog
          title={`Delete ${notebook.notebook_name}?`}
          action="Delete notebook"
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
        >
          {notebook.notes === 1
            ? 'The notebook and its note are deleted.'
            : `The notebook and its ${notebook.notes} notes are deleted.`}
        </ConfirmDialog>
      ) : null}
    </li>
  );
}
