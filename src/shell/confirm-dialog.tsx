import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal question before an action ("Delete Rates?", "Mark all as read?"): a title, what will
 * happen, Cancel and the action. Escape cancels. The safe choice has the focus unless `focus`
 * says the action (one that can be undone), so Enter right away does nothing harmful.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  /** The action's button ("Delete feed"). */
  action: string;
  /** A destructive action: its button is marked as such, and Cancel takes the focus. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const danger = props.danger ?? true;
  useEffect(() => (danger ? cancel : confirm).current?.focus(), [danger]);
  return (
    <div className="modal-scrim">
      <div
        className="modal small"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onCancel();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        <p>{props.children}</p>
        <div className="modal-actions">
          <button ref={cancel} type="button" className="button secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button
            ref={confirm}
            type="button"
            className={danger ? 'button primary danger' : 'button primary'}
            disabled={props.busy}
            aria-busy={props.busy || undefined}
            onClick={props.onConfirm}
          >
            {props.action}
          </button>
        </div>
      </div>
    </div>
  );
}
