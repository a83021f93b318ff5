import { useEffect, useRef, useState } from 'react';
import type { FeedTabKey } from '../../../contract/documents';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { showToast } from '../../shell/toasts';
import { isTyping } from '../documents';

/** How long the Undo of a mark-all-read is offered. */
export const MARK_ALL_UNDO_MS = 5_000;

type Marked = { deeplinks: string[]; count: number };

/**
 * "Mark all read" for the view on screen (the feed, or its tab, or one source of it): one
 * request (doc.markAllRead, optimistic in the worker's mirror), then an Undo for 5 s that puts
 * exactly the documents it marked back to unread, in one request. Shift+A asks first.
 */
export function MarkAllRead(props: {
  board: string;
  tab: FeedTabKey | null;
  source: string | null;
}) {
  const { client } = useShell();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [marked, setMarked] = useState<Marked | null>(null);
  const undoTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { board, tab, source } = props;

  useEffect(() => () => clearTimeout(undoTimer.current), []);

  const markAll = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      const answer = await client.call('doc.markAllRead', {
        board,
        tab,
        source,
        before: Math.floor(Date.now() / 1000),
        mark_id: `${client.tabId}-${Date.now()}`,
      });
      clearTimeout(undoTimer.current);
      setMarked({ deeplinks: answer.deeplinks, count: answer.deeplinks.length });
      undoTimer.current = setTimeout(() => setMarked(null), MARK_ALL_UNDO_MS);
    } catch (failure) {
      showToast('error', userMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const undo = () => {
    const done = marked;
    clearTimeout(undoTimer.current);
    setMarked(null);
    if (!done || done.deeplinks.length === 0) return;
    client
      .call('doc.markUnread', { deeplinks: done.deeplinks })
      .catch((failure: unknown) => showToast('error', userMessage(failure)));
  };

  // Shift+A: mark all read, after a confirmation.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'A' || !event.shiftKey || event.ctrlKey || event.metaKey || event.altKey) {
        return;
      }
      if (event.defaultPrevented || isTyping(event.target)) return;
      if (event.target instanceof Element && event.target.closest('[aria-modal="true"], dialog')) {
        return;
      }
      event.preventDefault();
      setConfirming(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        className="button secondary small"
        onClick={() => void markAll()}
        disabled={busy}
        aria-keyshortcuts="Shift+A"
      >
        Mark all read
      </button>
      {marked ? (
        <div className="mark-all-undo" role="status">
          {marked.count === 0
            ? 'Nothing here was unread.'
            : `Marked ${marked.count} document${marked.count === 1 ? '' : 's'} read.`}{' '}
          {marked.count > 0 ? (
            <button type="button" className="button secondary small" onClick={undo}>
              Undo
            </button>
          ) : null}
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Mark all as read?"
          action="Mark all read"
          danger={false}
          onConfirm={() => void markAll()}
          onCancel={() => setConfirming(false)}
        >
          Every document in this view is marked read. You can undo it for 5 seconds.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
