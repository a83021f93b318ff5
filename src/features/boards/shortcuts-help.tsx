import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { isTyping } from '../documents';

/** The reading loop's shortcuts as the `?` sheet lists them (bookmarks' s comes with them). */
export const SHORTCUTS: ReadonlyArray<{ keys: string[]; action: string }> = [
  { keys: ['j', '↓'], action: 'Next document' },
  { keys: ['k', '↑'], action: 'Previous document' },
  { keys: ['o', 'Enter'], action: 'Open the selected document' },
  { keys: ['m'], action: 'Mark read or unread' },
  { keys: ['Shift+A'], action: 'Mark all read (asks first)' },
  { keys: ['/'], action: 'Search' },
  { keys: ['Esc'], action: 'Close the preview' },
  { keys: ['?'], action: 'Show these shortcuts' },
];

/** A key the page's own shortcuts may take: not typed into a field, no modifier, no modal. */
const free = (event: KeyboardEvent) =>
  !event.defaultPrevented &&
  !event.ctrlKey &&
  !event.metaKey &&
  !event.altKey &&
  !isTyping(event.target) &&
  !(event.target instanceof Element && event.target.closest('[aria-modal="true"], dialog'));

/**
 * `?` opens the sheet of the reading loop's shortcuts, with the reader's setting of whether
 * opening a document marks it read; `/` goes to search (its box focused when on screen).
 */
export function ShortcutsHelp() {
  useSignals();
  const { client, state, product } = useShell();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const close = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!free(event)) return;
      if (event.key === '?') {
        event.preventDefault();
        setOpen(true);
      } else if (event.key === '/') {
        event.preventDefault();
        const box = document.querySelector<HTMLInputElement>('form[role="search"] input');
        if (box) box.focus();
        else void navigate({ to: routesFor(product).search.root });
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate, product]);

  useEffect(() => {
    if (open) close.current?.focus();
  }, [open]);

  if (!open) return null;
  const openMarksRead = state.$preferences.value?.open_marks_read !== false;
  return (
    <div className="modal-scrim" onClick={() => setOpen(false)}>
      <div
        className="modal shortcuts-help"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.action}>
                <td>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? ' or ' : null}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <label className="shortcuts-setting">
          <input
            type="checkbox"
            checked={openMarksRead}
            onChange={(event) =>
              void client
                .call('preferences.update', { open_marks_read: event.currentTarget.checked })
                .catch(() => {})
            }
          />{' '}
          Opening a document marks it read
        </label>
        <div className="modal-actions">
          <button
            ref={close}
            type="button"
            className="button secondary"
            onClick={() => setOpen(false)}
          >
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
