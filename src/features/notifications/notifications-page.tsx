import { useNavigate } from '@tanstack/react-router';
import { useRef, useState, type MouseEvent } from 'react';
import type { Notification } from '../../../contract/notifications';
import { formatBadge } from '../../lib/format';
import { userMessage } from '../../lib/user-message';
import { useFillHeight } from '../../layout/use-fill-height';
import { useWindowedList } from '../../lists/use-windowed-list';
import { VirtualList } from '../../lists/virtual-list';
import { useShell } from '../../shell-context';
import { isInAppLink, NotificationRow, NOTIFICATION_ROW_HEIGHT } from './notification-row';
import { RetryAlert } from '../../shell/retry-alert';

/** The API marks at most this many notifications read per call (contract/notifications.ts). */
const MARK_BATCH = 100;

/**
 * /notifications: the template for every long list. The list is read from the worker's mirror
 * by windows (notifications.window) as it scrolls, however many there are; rows not read yet
 * show as placeholders, and a 'changed' event re-reads the shown window when it concerns it.
 * Each row is as tall as its content, and the list reaches the window's bottom (issue 18).
 * A notification is opened by its title (its link; it is then marked read) or marked read by
 * its own button; "Mark all as read" marks the unread ones loaded.
 */
export function NotificationsPage() {
  const { client } = useShell();
  const navigate = useNavigate();
  const list = useWindowedList('notifications.window', 'notifications');
  const [marking, setMarking] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const fill = useRef<HTMLDivElement>(null);
  useFillHeight(fill);

  const total = list.total();
  const unread = list.summary()?.unread ?? 0;
  const readError = list.error();
  // "Mark all as read" marks what the user has seen: the unread rows read so far.
  const unreadLoaded = list
    .loaded()
    .filter((n) => !n.read)
    .map((n) => n.id);

  const markAllRead = async () => {
    setMarking(true);
    setActionError(null);
    try {
      for (let i = 0; i < unreadLoaded.length; i += MARK_BATCH) {
        await client.call('notifications.markRead', { ids: unreadLoaded.slice(i, i + MARK_BATCH) });
      }
    } catch (error) {
      setActionError(userMessage(error));
    } finally {
      setMarking(false);
      // The worker says what changed as well; reading the shown rows now shows it at once.
      list.refresh();
    }
  };

  // One notification read: when it is opened, or by its own button.
  const markRead = async (item: Notification) => {
    if (item.read) return;
    setActionError(null);
    try {
      await client.call('notifications.markRead', { ids: [item.id] });
    } catch (error) {
      setActionError(userMessage(error));
    } finally {
      list.refresh();
    }
  };

  // Opening a notification marks it read; a link inside the app opens in place (a plain click:
  // a modified one opens a new tab as the browser does), another site's in a new tab.
  const open = (item: Notification, event: MouseEvent<HTMLAnchorElement>) => {
    void markRead(item);
    const plain =
      event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (item.link !== null && isInAppLink(item.link) && plain) {
      event.preventDefault();
      void navigate({ href: item.link });
    }
  };

  return (
    <section className="notifications" aria-busy={list.loading() || undefined}>
      <div className="notifications-bar">
        <p className="muted" role="status">
          {unread > 0 ? `${formatBadge(unread)} unread` : total ? 'All read' : null}
        </p>
        {unreadLoaded.length > 0 ? (
          <button
            type="button"
            className="button secondary small"
            disabled={marking}
            aria-busy={marking || undefined}
            onClick={() => void markAllRead()}
          >
            Mark all as read
          </button>
        ) : null}
      </div>
      {readError !== null ? <RetryAlert error={readError} onRetry={list.refresh} /> : null}
      {actionError ? (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      ) : null}
      {total === 0 ? <p>You have no notifications.</p> : null}
      <div className="notification-fill" ref={fill}>
        {total ? (
          <VirtualList<Notification>
            label="Notifications"
            className="notification-list"
            count={total}
            rowHeight={NOTIFICATION_ROW_HEIGHT}
            measureRows
            row={list.row}
            renderRow={(item) => (
              <NotificationRow item={item} onOpen={open} onMarkRead={(n) => void markRead(n)} />
            )}
            onRangeChange={list.setRange}
          />
        ) : null}
      </div>
    </section>
  );
}
