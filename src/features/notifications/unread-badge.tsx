import { useEffect, useState } from 'react';
import { formatBadge } from '../../lib/format';
import { useShell } from '../../shell-context';

/**
 * How many notifications are unread, from the worker's mirror: read once on mount and again on
 * every 'changed' event for the notifications store (a mark, a new notification, another tab).
 * A failed read keeps the last count (null until one has been read).
 */
export function useUnreadNotifications(): number | null {
  const { client } = useShell();
  const [unread, setUnread] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    let asked = 0;
    const read = () => {
      const mine = ++asked;
      client.call('notifications.unread', {}).then(
        (answer) => {
          // Only the latest read counts: an earlier answer may land after a later one.
          if (live && mine === asked) setUnread(answer.unread);
        },
        () => {},
      );
    };
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'notifications') read();
    });
    read();
    return () => {
      live = false;
      stop();
    };
  }, [client]);
  return unread;
}

/** The top bar's unread count beside "Notifications" ("99+" above 99); nothing when all read. */
export function UnreadBadge() {
  const unread = useUnreadNotifications();
  if (!unread) return null;
  return (
    <>
      <span className="unread-badge" aria-hidden="true">
        {formatBadge(unread)}
      </span>
      <span className="visually-hidden">, {unread} unread</span>
    </>
  );
}
