import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { Board } from '../../../contract/boards';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { showToast } from '../../shell/toasts';
import { useShell } from '../../shell-context';
import { useOp } from './use-op';
import './boards.css';

/**
 * "Delete" for a custom or AI feed: asks first ("Delete Rates?"), then deletes it (boards.delete)
 * and says so. `onDeleted` runs once the worker has taken the deletion (the feed page leaves for
 * the home feed; the manager re-reads its list).
 */
export function DeleteFeedButton(props: {
  board: Pick<Board, 'board_id' | 'board_name'>;
  disabled?: boolean;
  onDeleted?: () => void;
}) {
  const { client } = useShell();
  const { board } = props;
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    setDeleting(true);
    try {
      await client.call('boards.delete', { id: board.board_id });
      setConfirming(false);
      showToast('success', `${board.board_name} is deleted`);
      props.onDeleted?.();
    } catch (error) {
      showToast('error', userMessage(error));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button secondary small danger"
        aria-label={`Delete ${board.board_name}`}
        disabled={props.disabled || deleting}
        aria-busy={deleting || undefined}
        onClick={() => setConfirming(true)}
      >
        Delete
      </button>
      {confirming ? (
        <ConfirmDelete
          name={board.board_name}
          busy={deleting}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

function ConfirmDelete(props: {
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  // The safe choice has the focus: Enter right away keeps the feed.
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="modal-scrim">
      <div
        className="modal small"
        role="dialog"
        aria-modal="true"
        aria-labelledby="delete-feed-title"
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onCancel();
        }}
      >
        <h2 id="delete-feed-title">Delete {props.name}?</h2>
        <p>
          The feed and its list of documents are deleted. The documents stay in your other feeds.
        </p>
        <div className="modal-actions">
          <button ref={cancel} type="button" className="button secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button primary danger"
            disabled={props.busy}
            aria-busy={props.busy || undefined}
            onClick={props.onConfirm}
          >
            Delete feed
          </button>
        </div>
      </div>
    </div>
  );
}

/** The feed page's "Delete" for the custom or AI feed it shows (nothing for the home feed). */
export function FeedPageDelete(props: { boardId: string }) {
  const { product } = useShell();
  const navigate = useNavigate();
  const board = useOp('boards.get', { id: props.boardId }, { stores: ['boards'] });
  if (!board.data) return null;
  return (
    <DeleteFeedButton
      board={board.data}
      onDeleted={() => void navigate({ to: routesFor(product).feeds.home, search: {} })}
    />
  );
}
