import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState } from 'react';
import { TOAST_TEXT } from '../../../contract/constants';
import { NOTEBOOK_TEXT, type NoteDocument } from '../../../contract/notebooks';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import {
  answerToNoteDocument,
  noteNameFrom,
  snipToNoteDocument,
  type NoteCitation,
} from './note-format';
import { newId } from './notebook-store';
import { NotebookPicker } from './notebook-picker';
import './notebooks.css';

/** Whether the notebooks feature is on for the user (flag `notebooks`). */
function useNotebooksOn(): boolean {
  useSignals();
  const { state } = useShell();
  return state.$flags.value.notebooks === true;
}

/**
 * A button that opens the notebook picker and saves a note into the chosen notebook
 * (notes.create, optimistic: the note shows in every tab at once, the server's refusal rolls it
 * back). `onOpen` runs as the picker opens (before its field takes the focus, and with it the
 * page's selection); `make` builds the note when a notebook is picked.
 */
function SaveButton(props: {
  label: string;
  title: string;
  success: string;
  failure: string;
  make: () => { name: string; document: NoteDocument };
  onOpen?: () => void;
}) {
  const { client } = useShell();
  const [open, setOpen] = useState(false);
  const pick = (notebookId: string) => {
    setOpen(false);
    const note = props.make();
    client.call('notes.create', { id: newId(), notebook_id: notebookId, ...note }).then(
      () => showToast('success', props.success),
      () => showToast('error', props.failure),
    );
  };
  return (
    <span className="save-to-note">
      <button
        type="button"
        className="button secondary small"
        title={props.title}
        aria-expanded={open}
        onClick={() => {
          if (!open) props.onOpen?.();
          setOpen(!open);
        }}
      >
        {props.label}
      </button>
      {open ? (
        <NotebookPicker label={props.title} onPick={pick} onClose={() => setOpen(false)} />
      ) : null}
    </span>
  );
}

/**
 * "Save to note" under an assistant answer (001 §2): shown only with the notebooks feature on
 * and once the chat holds at least 2 messages (a finished answer follows its question). The note
 * keeps the answer's text and its citations as links that open the cited passage. "Saved to
 * {product} Note!" on success, the generic failure text otherwise (001 §8).
 */
export function SaveToNoteButton(props: {
  messages: number;
  answer: () => string;
  citations: () => readonly NoteCitation[];
}) {
  const { product } = useShell();
  const on = useNotebooksOn();
  if (!on || props.messages < 2) return null;
  return (
    <SaveButton
      label="Save to note"
      title="Save to note"
      success={NOTEBOOK_TEXT.savedFromChat(product)}
      failure={TOAST_TEXT.genericFailure}
      make={() => {
        const text = props.answer();
        return {
          name: noteNameFrom(text),
          document: answerToNoteDocument(text, props.citations()),
        };
      }}
    />
  );
}

/**
 * "Add to notebook" for a document (a card or its preview): the note is the document's title,
 * linked to its preview, and the text selected in `within` when there is a selection there (a
 * snip), else the text the card shows. Toasts "Note created successfully!" / "Add to Notes
 * failed! Please contact us!" (002 §8).
 */
export function AddToNotebookButton(props: {
  title: string;
  href: string | null;
  text: () => string;
  within?: () => Element | null;
}) {
  const on = useNotebooksOn();
  // The snip, read as the picker opens: the picker's field takes the selection away.
  const snip = useRef('');
  if (!on) return null;
  const selected = () => {
    const selection = typeof window !== 'undefined' ? window.getSelection() : null;
    const root = props.within?.();
    if (!selection || selection.isCollapsed || !root) return '';
    const node = selection.anchorNode;
    return node && root.contains(node) ? selection.toString() : '';
  };
  return (
    <SaveButton
      label="Add to notebook"
      title="Add to notebook"
      success={NOTEBOOK_TEXT.noteCreated}
      failure={NOTEBOOK_TEXT.addFailed}
      onOpen={() => (snip.current = selected())}
      make={() => ({
        name: noteNameFrom(props.title),
        document: snipToNoteDocument({
          title: props.title,
          href: props.href,
          text: snip.current || props.text(),
        }),
      })}
    />
  );
}
