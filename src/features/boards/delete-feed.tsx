import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Board } from '../../../contract/boards';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { ConfirmDialog } from '../../shell/confirm-dialog';
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
        <ConfirmDialog
          title={`Delete ${board.board_name}?`}
          action="Delete feed"
          busy={deleting}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        >
          The feed and its list of documents are deleted. The documents stay in your other feeds.
        </ConfirmDialog>
      ) : null}
    </>
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
