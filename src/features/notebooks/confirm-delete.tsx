import { useEffect, useRef } from 'react';

/** "Delete {name}?" with the safe choice focused (Enter right away keeps it). */
export function ConfirmDelete(props: {
  title: string;
  text: string;
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="modal-scrim">
      <div
        className="modal small"
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onCancel();
        }}
      >
        <h2>{props.title}</h2>
        <p>{props.text}</p>
        <div className="modal-actions">
          <button ref={cancel} type="button" className="button secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="button" className="button primary danger" onClick={props.onConfirm}>
            {props.action}
          </button>
        </div>
      </div>
    </div>
  );
}
