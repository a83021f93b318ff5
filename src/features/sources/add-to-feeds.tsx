import { useEffect, useId, useRef, useState } from 'react';
import type { SourceBoard } from '../../../contract/sources';
import { useCloseOutside } from '../../lib/use-close-outside';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';

/**
 * The user's feeds for one source, read from the worker's mirror and read again whenever the
 * worker says store 'sources' changed (a choice here or in another tab, a rollback).
 */
function useSourceFeeds(sourceKey: string, open: boolean) {
  const { client } = useShell();
  const [feeds, setFeeds] = useState<readonly SourceBoard[] | null>(null);
  useEffect(() => {
    if (!open) return undefined;
    let alive = true;
    let latest = 0;
    const read = () => {
      const mine = ++latest;
      client.call('sources.feeds', { key: sourceKey }).then(
        (answer) => alive && mine === latest && setFeeds(answer),
        (failure: unknown) => {
          if (!alive || mine !== latest) return;
          setFeeds((now) => now ?? []);
          showToast('error', userMessage(failure));
        },
      );
    };
    read();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'sources') read();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, sourceKey, open]);
  return [feeds, setFeeds] as const;
}

/**
 * Add to feeds (002 §4, §7): a source's page lets the user choose which of their feeds read it.
 * A choice shows at once and goes to the worker (optimistic through the outbox); when the
 * server refuses, a toast says so and the selection reverts (002 §8). A feed that reads every
 * followed source is shown checked and cannot be changed here.
 */
export function AddToFeeds(props: { sourceKey: string; label: string }) {
  const { client } = useShell();
  const [open, setOpen] = useState(false);
  const [feeds, setFeeds] = useSourceFeeds(props.sourceKey, open);
  const popupId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useRef(() => setOpen(false)).current;
  useCloseOutside(open, root, close);

  const choose = (feed: SourceBoard) => {
    if (feeds === null || feed.reads_all) return;
    const before = feeds;
    const next = feeds.map((f) =>
      f.board_id === feed.board_id ? { ...f, selected: !f.selected } : f,
    );
    setFeeds(next);
    const boards = next.filter((f) => f.selected).map((f) => f.board_id);
    client.call('sources.setFeeds', { key: props.sourceKey, boards }).catch((failure: unknown) => {
      // Back to what it was, unless another choice has moved it since.
      setFeeds((now) => (now === next ? before : now));
      showToast('error', userMessage(failure));
    });
  };

  return (
    <div className="tag-picker add-to-feeds" ref={root}>
      <button
        ref={button}
        type="button"
        className="button secondary small"
        aria-expanded={open}
        aria-controls={open ? popupId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        Add to feeds
      </button>
      {open ? (
        <div
          id={popupId}
          className="tag-picker-popup"
          role="dialog"
          aria-label={`Feeds that read ${props.label}`}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            close();
            button.current?.focus();
          }}
        >
          {feeds === null ? (
            <p role="status">Loading feeds…</p>
          ) : feeds.length === 0 ? (
            <p role="status">You have no feeds yet.</p>
          ) : (
            <ul className="tag-picker-list">
              {feeds.map((feed) => (
                <li key={feed.board_id}>
                  <label className="tag-picker-option">
                    <input
                      type="checkbox"
                      checked={feed.selected}
                      disabled={feed.reads_all}
                      onChange={() => choose(feed)}
                    />{' '}
                    {feed.board_name}
                    {feed.reads_all ? ' (reads every source)' : ''}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}
