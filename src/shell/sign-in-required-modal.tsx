import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useShell } from '../shell-context';

/**
 * Shown when the session is lost (000 §2 "Generic screens"): one button, Reload. Clicking
 * outside and Escape do nothing on purpose: the tab has no session to go back to.
 */
export function SignInRequiredModal(props: { reload?: () => void }) {
  useSignals();
  const { state } = useShell();
  const button = useRef<HTMLButtonElement>(null);
  const open = state.$signInRequired.value;

  useEffect(() => {
    if (open) button.current?.focus();
  }, [open]);

  if (!open) return null;

  // Keep focus on the only control: Tab cannot leave the modal, Escape does not close it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Tab' || event.key === 'Escape') {
      event.preventDefault();
      button.current?.focus();
    }
  };

  return (
    <div className="modal-backdrop" data-testid="sign-in-required-backdrop" onKeyDown={onKeyDown}>
      <div
        className="modal small"
        role="dialog"
        aria-modal="true"
        aria-labelledby="sign-in-required-title"
        aria-describedby="sign-in-required-text"
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
      </div>
    </div>
  );
}
