import { useEffect, useState } from 'react';
import { NOTIFICATIONS_PAGE_SIZE } from '../../contract/constants';
import type { Notification } from '../../contract/user';
import { formatBadge } from '../lib/format';
import { useShell } from '../shell-context';
import { messageOf } from './auth/form-field';

/** /notifications: 20 a page; the next page is asked for only after a full one (000 §7). */
export function NotificationsPage() {
  const { client } = useShell();
  const [items, setItems] = useState<Notification[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [unread, setUnread] = useState(0);
  const [busy, setBusy] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = async (next: number) => {
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('notifications.page', { page: next });
      setItems((current) => (next === 1 ? result.results : [...current, ...result.results]));
      setPage(next);
      setUnread(result.unread);
      setHasMore(result.results.length >= NOTIFICATIONS_PAGE_SIZE);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    void load(1);
    // Load the first page once per visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section className="notifications" aria-busy={busy || undefined}>
      <p className="muted">
        {unread > 0 ? `${formatBadge(unread)} unread` : items.length > 0 ? 'All read' : null}
      </p>
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
          onClick={() => void load(page + 1)}
        >
          {busy ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </section>
  );
}
