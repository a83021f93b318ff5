import { useEffect, useRef, useState } from 'react';
import { NOTIFICATIONS_PAGE_SIZE } from '../../contract/constants';
import type { Notification } from '../../contract/user';
import { formatBadge } from '../lib/format';
import { useShell } from '../shell-context';
import { messageOf } from './auth/form-field';

/** /notifications: 20 a page; the next page is asked for only after a full one (000 §7). */
export function NotificationsPage() {
  const { client } = useShell();
  const [items, setItems] = useState<Notification[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [unread, setUnread] = useState(0);
  const [busy, setBusy] = useState(true);
  const [error, setError] = useState<string | null>(null);

  // Reads run one at a time, in order, and each counts the pages loaded when it starts: a
  // re-read racing "Load more" could otherwise answer last with fewer pages, cutting the list
  // back, and the next "Load more" would skip the page it dropped.
  const pagesLoaded = useRef(0);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const serially = (task: () => Promise<void>) => {
    queue.current = queue.current.then(task).catch(() => {});
  };

  /** The first page (replacing the list) or the page after the ones loaded. */
  const load = (which: 'first' | 'next') =>
    serially(async () => {
      const next = which === 'first' ? 1 : pagesLoaded.current + 1;
      setBusy(true);
      setError(null);
      try {
        const result = await client.call('notifications.page', { page: next });
        pagesLoaded.current = next;
        setItems((current) => (next === 1 ? result.results : [...current, ...result.results]));
        setUnread(result.unread);
        setHasMore(result.results.length >= NOTIFICATIONS_PAGE_SIZE);
      } catch (err) {
        setError(messageOf(err));
      } finally {
        setBusy(false);
      }
    });

  /** Every page loaded so far, read again (the worker says notifications changed). */
  const reread = () =>
    serially(async () => {
      const pages = pagesLoaded.current;
      try {
        const answers = [];
        for (let p = 1; p <= pages; p += 1) {
          answers.push(await client.call('notifications.page', { page: p }));
        }
        const last = answers.at(-1);
        if (!last) return;
        setItems(answers.flatMap((a) => a.results));
        setUnread(last.unread);
        setHasMore(last.results.length >= NOTIFICATIONS_PAGE_SIZE);
      } catch (err) {
        setError(messageOf(err));
      }
    });

  const unreadShown = items.filter((item) => !item.read).map((item) => item.id);
  const markAllRead = async () => {
    setError(null);
    try {
      // The API marks up to 100 at a time; a page shows 20, so the loaded ones fit in a few calls.
      for (let i = 0; i < unreadShown.length; i += 100) {
        await client.call('notifications.markRead', { ids: unreadShown.slice(i, i + 100) });
      }
      setItems((current) => current.map((item) => ({ ...item, read: true })));
      setUnread((count) => Math.max(0, count - unreadShown.length));
    } catch (err) {
      setError(messageOf(err));
    }
  };

  useEffect(() => {
    load('first');
    // Another tab or device marked some read (or new ones arrived): the worker's mirror has the
    // new state, so re-read the pages shown; they answer from the mirror at once.
    const unsubscribe = client.onEvent((event) => {
      if (event.type !== 'changed' || !event.stores.includes('notifications')) return;
      reread();
    });
    return unsubscribe;
    // Subscribe once per visit; `load` and `reread` only use setters, refs and the stable client.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section className="notifications" aria-busy={busy || undefined}>
      <div className="notifications-bar">
        <p className="muted">
          {unread > 0 ? `${formatBadge(unread)} unread` : items.length > 0 ? 'All read' : null}
        </p>
        {unreadShown.length > 0 ? (
          <button
            type="button"
            className="button secondary small"
            onClick={() => void markAllRead()}
          >
            Mark all as read
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!busy && !error && items.length === 0 ? <p>You have no notifications.</p> : null}
      <ul className="notification-list">
        {items.map((item) => (
          <li key={item.id} className={item.read ? 'notification' : 'notification unread'}>
            <p className="notification-title">{item.title}</p>
            <p>{item.body}</p>
            <time dateTime={item.created_at}>{new Date(item.created_at).toLocaleString()}</time>
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button
          type="button"
          className="button secondary"
          disabled={busy}
          onClick={() => load('next')}
        >
          {busy ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </section>
  );
}
