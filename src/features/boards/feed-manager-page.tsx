import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Board } from '../../../contract/boards';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { showToast } from '../../shell/toasts';
import { useShell } from '../../shell-context';
import { builderSearch, type BuilderTarget } from './builder-params';
import { DeleteFeedButton } from './delete-feed';
import { useOp } from './use-op';
import './boards.css';
import { RetryAlert } from '../../shell/retry-alert';

type Action = 'enable' | 'duplicate';

/** One feed in the manager: its name (to the feed), kind, state and actions. */
function BoardEntryRow(props: {
  board: Board;
  busy: Action | null;
  onEdit: () => void;
  onDuplicate: () => void;
  onEnable: (enabled: boolean) => void;
  onDeleted: () => void;
}) {
  const { product } = useShell();
  const { board, busy } = props;
  return (
    <li className={board.enabled ? 'fb-feed-row' : 'fb-feed-row disabled'}>
      <div className="fb-feed-row-main">
        <Link
          to={routesFor(product).feeds.feed(board.board_id)}
          search={{}}
          className="fb-feed-row-name"
        >
          {board.board_name}
        </Link>
        {board.isNew ? <span className="fb-badge">New</span> : null}
        <span className="muted">{board.kind === 'ai' ? 'AI feed' : 'Custom feed'}</span>
        {board.enabled ? null : <span className="fb-badge fb-muted-badge">Disabled</span>}
        {board.description ? (
          <p className="muted fb-feed-row-description">{board.description}</p>
        ) : null}
      </div>
      <div className="fb-feed-row-actions">
        <button
          type="button"
          className="button secondary small"
          aria-label={`Edit ${board.board_name}`}
          onClick={props.onEdit}
        >
          Edit
        </button>
        <button
          type="button"
          className="button secondary small"
          aria-label={`Duplicate ${board.board_name}`}
          disabled={busy !== null}
          aria-busy={busy === 'duplicate' || undefined}
          onClick={props.onDuplicate}
        >
          Duplicate
        </button>
        <button
          type="button"
          className="button secondary small"
          aria-label={`${board.enabled ? 'Disable' : 'Enable'} ${board.board_name}`}
          disabled={busy !== null}
          aria-busy={busy === 'enable' || undefined}
          onClick={() => props.onEnable(!board.enabled)}
        >
          {board.enabled ? 'Disable' : 'Enable'}
        </button>
        <DeleteFeedButton board={board} disabled={busy !== null} onDeleted={props.onDeleted} />
      </div>
    </li>
  );
}

/**
 * /settings/feeds/root: the feed manager. Every feed, hidden (disabled) ones too, each to open,
 * edit in the builder, duplicate, enable and disable, or delete (after a confirmation).
 */
export function FeedManagerPage() {
  const { client } = useShell();
  const navigate = useNavigate();
  const boards = useOp('boards.list', { hidden: true }, { stores: ['boards'] });
  const [busy, setBusy] = useState<Record<string, Action>>({});

  const openBuilder = (target: BuilderTarget) =>
    void navigate({
      to: '.',
      search: (prev: Record<string, unknown>) => builderSearch('overlay', prev, target),
    });
  const act = async (board: Board, action: Action, run: () => Promise<unknown>, done: string) => {
    setBusy((b) => ({ ...b, [board.board_id]: action }));
    try {
      await run();
      showToast('success', done);
    } catch (error) {
      showToast('error', userMessage(error));
    } finally {
      setBusy(({ [board.board_id]: _, ...rest }) => rest);
      boards.reload();
    }
  };

  const list = boards.data ?? [];
  return (
    <section className="fb-feed-manager" aria-busy={boards.loading || undefined}>
      <div className="fb-section-bar">
        <p className="muted" role="status">
          {boards.data ? `${list.length} ${list.length === 1 ? 'feed' : 'feeds'}` : ''}
        </p>
        <button
          type="button"
          className="button primary small"
          onClick={() => openBuilder({ page: 'select-feed-type' })}
        >
          Create feed
        </button>
      </div>
      {boards.error ? <RetryAlert error={boards.error} onRetry={boards.reload} /> : null}
      {boards.loading && !boards.data ? <p className="muted">Loading your feeds…</p> : null}
      {boards.data && list.length === 0 ? (
        <p>You have no feeds yet. Create one from keywords and the sources you follow.</p>
      ) : null}
      {list.length ? (
        <ul className="fb-feed-rows" aria-label="Your feeds">
          {list.map((board) => (
            <BoardEntryRow
              key={board.board_id}
              board={board}
              busy={busy[board.board_id] ?? null}
              onEdit={() =>
                openBuilder({
                  page: board.kind === 'ai' ? 'edit-ai-feed' : 'edit-feed',
                  'board-id': board.board_id,
                })
              }
              onDuplicate={() =>
                void act(
                  board,
                  'duplicate',
                  () => client.call('boards.duplicate', { id: board.board_id }),
                  `${board.board_name} is duplicated`,
                )
              }
              onEnable={(enabled) =>
                void act(
                  board,
                  'enable',
                  () => client.call('boards.enable', { id: board.board_id, enabled }),
                  `${board.board_name} is ${enabled ? 'enabled' : 'disabled'}`,
                )
              }
              onDeleted={boards.reload}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
