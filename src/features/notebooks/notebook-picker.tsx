import { useEffect, useId, useRef, useState } from 'react';
import { NOTEBOOK_TEXT, notebookKey, notebookOffer } from '../../../contract/notebooks';
import { userMessage } from '../../lib/user-message';
import { showToast } from '../../shell/toasts';
import { useCreateNotebook, useNotebooks } from './notebook-store';
import { Upsell } from './upsell';

/**
 * The notebook picker (002 §5): a search box ("Find notebook or create one") over the user's
 * notebooks, the default first; "Create {name}" only when the trimmed input is a valid name
 * and no notebook of that name exists; "Please create a Notebook" when there is none. A notebook
 * created here is created optimistically (notebooks.create) and picked at once: the note saved
 * into it follows it in the worker's queue.
 */
export function NotebookPicker(props: {
  label: string;
  busy?: boolean;
  onPick: (notebookId: string) => void;
  onClose: () => void;
}) {
  const notebooks = useNotebooks();
  const [input, setInput] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const listId = useId();
  useEffect(() => field.current?.focus(), []);

  const all = notebooks.data ?? [];
  const query = notebookKey(input);
  const shown = query ? all.filter((n) => notebookKey(n.notebook_name).includes(query)) : all;
  const offer = notebookOffer(input, all);

  const gate = useCreateNotebook();
  const create = (name: string) => {
    void gate
      .create(name, (failure: unknown) => showToast('error', userMessage(failure)))
      .then((id) => {
        if (id) props.onPick(id);
      });
  };

  return (
    <div
      className="notebook-picker"
      role="dialog"
      aria-label={props.label}
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onClose();
      }}
    >
      <input
        ref={field}
        type="search"
        className="notebook-picker-input"
        placeholder={NOTEBOOK_TEXT.pickerPlaceholder}
        aria-label={NOTEBOOK_TEXT.pickerPlaceholder}
        aria-controls={listId}
        maxLength={400}
        value={input}
        onChange={(event) => setInput(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          const exact = all.find((n) => notebookKey(n.notebook_name) === query);
          if (exact) props.onPick(exact.notebook_id);
          else if (offer) create(offer);
        }}
      />
      <ul id={listId} className="notebook-picker-list" aria-label="Notebooks">
        {shown.map((notebook) => (
          <li key={notebook.notebook_id}>
            <button
              type="button"
              className="notebook-picker-item"
              disabled={props.busy}
              onClick={() => props.onPick(notebook.notebook_id)}
            >
              {notebook.notebook_name}
            </button>
          </li>
        ))}
        {offer ? (
          <li>
            <button
              type="button"
              className="notebook-picker-item create"
              disabled={props.busy}
              onClick={() => create(offer)}
            >
              Create {offer}
            </button>
          </li>
        ) : null}
      </ul>
      {notebooks.data !== null && all.length === 0 && !offer ? (
        <p className="muted notebook-picker-empty">{NOTEBOOK_TEXT.pickerEmpty}</p>
      ) : null}
      {gate.upsell ? <Upsell message={gate.upsell} onDismiss={gate.dismiss} /> : null}
      <button type="button" className="button secondary small" onClick={props.onClose}>
        Cancel
      </button>
    </div>
  );
}
