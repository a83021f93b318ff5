import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useShell } from '../shell-context';

/**
 * Shown when the session is lost (000 §2 "Generic screens"): one button, Reload. Clicking
 * outside and Escape do nothing on purpose: the tab has no session to go back to.
 *
 * A native modal <dialog> (showModal): the browser makes the page behind it inert, so neither
 * Tab nor a click reaches it, and screen readers see only the dialog.
 */
export function SignInRequiredModal(props: { reload?: () => void }) {
  useSignals();
  const { state } = useShell();
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = state.$signInRequired.value;

  useEffect(() => {
    const element = dialog.current;
    if (!open || !element) return;
    if (!element.open) element.showModal();
    button.current?.focus();
  }, [open]);

  if (!open) return null;

  // Escape asks the dialog to close: refuse (the keydown is the request, cancel its answer).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') event.preventDefault();
  };
  const onCancel = (event: SyntheticEvent) => event.preventDefault();
  // A browser may close it anyway (Chrome does on a repeated Escape): show it again.
  const onClose = () => {
    const element = dialog.current;
    if (element && !element.open && state.$signInRequired.peek()) element.showModal();
  };

  return (
    <dialog
      ref={dialog}
      className="modal small"
      aria-modal="true"
      aria-labelledby="sign-in-required-title"
      aria-describedby="sign-in-required-text"
      onKeyDown={onKeyDown}
      onCancel={onCancel}
      onClose={onClose}
    >
      <h2 id="sign-in-required-title">Sign in required</h2>
      <p id="sign-in-required-text">
        You have been logged out. Press the Reload button to sign in again.
      </p>
      <div className="modal-actions">
        <button
          ref={button}
          type="button"
          className="button primary"
          onClick={props.reload ?? (() => window.location.reload())}
        >
          Reload
        </button>
      </div>
    </dialog>
  );
}
