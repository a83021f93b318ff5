import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import {
  NOTE_NAME_MAX,
  noteText,
  sanitizeNoteDocument,
  textToNoteDocument,
  type Note,
  type NoteDocument,
  type NoteLeaf,
} from '../../../contract/notebooks';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';

/** Typing stops this long before the note is saved (and at once when the field is left). */
export const AUTOSAVE_MS = 700;

function Leaf(props: { leaf: NoteLeaf }) {
  const navigate = useNavigate();
  const { leaf } = props;
  let content: ReactNode = leaf.text;
  if (leaf.code) content = <code>{content}</code>;
  if (leaf.bold) content = <strong>{content}</strong>;
  if (leaf.italic) content = <em>{content}</em>;
  if (!leaf.href) return <>{content}</>;
  if (leaf.href.startsWith('/')) {
    // A passage, a note or a feed inside the app: the router opens it.
    const href = leaf.href;
    return (
      <a
        href={href}
        onClick={(event: MouseEvent) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey) return;
          event.preventDefault();
          void navigate({ href });
        }}
      >
        {content}
      </a>
    );
  }
  return (
    <a href={leaf.href} target="_blank" rel="noopener noreferrer nofollow">
      {content}
    </a>
  );
}

/**
 * A note's document rendered as elements (never as HTML), its links checked once more
 * (contract `sanitizeNoteDocument`): a link the rules refuse shows as its text.
 */
export function NoteDocumentView(props: { document: NoteDocument }) {
  const blocks = sanitizeNoteDocument(props.document);
  if (blocks.length === 0) return <p className="muted">This note is empty.</p>;
  return (
    <div className="note-document">
      {blocks.map((block, i) => {
        const leaves = block.children.map((leaf, j) => <Leaf key={j} leaf={leaf} />);
        switch (block.type) {
          case 'heading':
            return <h3 key={i}>{leaves}</h3>;
          case 'quote':
            return <blockquote key={i}>{leaves}</blockquote>;
          case 'list-item':
            return (
              <ul key={i}>
                <li>{leaves}</li>
              </ul>
            );
          case 'code':
            return <pre key={i}>{leaves}</pre>;
          default:
            return <p key={i}>{leaves}</p>;
        }
      })}
    </div>
  );
}

/**
 * One note, edited in place: its name and its text, each saved a moment after typing stops
 * and at once when the field is left (notes.edit, optimistic in every tab). The text is edited
 * as paragraphs; a paragraph left as it was keeps its marks and links (a cited source stays a
 * link that opens the passage).
 */
export function NoteEditor(props: { note: Note; onDelete: () => void }) {
  const { client } = useShell();
  const { note } = props;
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(note.name);
  const [body, setBody] = useState(() => noteText(note.document));
  const [status, setStatus] = useState<'saved' | 'pending' | 'saving'>('saved');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ name, body, note });
  latest.current = { name, body, note };
  const dirty = useRef(false);

  // Another tab's or device's edit shows here while this one is not being typed in.
  useEffect(() => {
    if (dirty.current) return;
    setName(note.name);
    setBody(noteText(note.document));
  }, [note]);

  const save = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!dirty.current) return;
    dirty.current = false;
    const { name: nextName, body: nextBody, note: held } = latest.current;
    const document = textToNoteDocument(nextBody, held.document);
    setStatus('saving');
    client.call('notes.edit', { id: held.id, document, name: nextName }).then(
      () => setStatus((s) => (s === 'saving' ? 'saved' : s)),
      (failure: unknown) => {
        setStatus('saved');
        showToast('error', userMessage(failure));
      },
    );
  }, [client]);

  const changed = () => {
    dirty.current = true;
    setStatus('pending');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(save, AUTOSAVE_MS);
  };

  // Leaving the page saves what was typed.
  useEffect(() => () => save(), [save]);

  return (
    <article className="note" aria-label={note.name || 'Untitled note'}>
      <header className="note-header">
        <input
          className="note-name"
          aria-label="Note name"
          maxLength={NOTE_NAME_MAX}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            changed();
          }}
          onBlur={save}
        />
        <span className="muted note-status" role="status">
          {status === 'saved' ? 'Saved' : 'Saving…'}
        </span>
        <button
          type="button"
          className="button secondary small"
          onClick={() => setEditing(!editing)}
        >
          {editing ? 'Done' : 'Edit'}
        </button>
        <button type="button" className="button secondary small danger" onClick={props.onDelete}>
          Delete note
        </button>
      </header>
      {editing ? (
        <textarea
          className="note-body"
          aria-label="Note text"
          rows={Math.min(20, Math.max(4, body.split('\n').length + 1))}
          value={body}
          onChange={(event) => {
            setBody(event.target.value);
            changed();
          }}
          onBlur={save}
        />
      ) : (
        <NoteDocumentView document={note.document} />
      )}
    </article>
  );
}
