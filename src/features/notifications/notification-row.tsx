import type { MouseEvent } from 'react';
import { formatWhen } from '../../lib/format';
import type { Notification } from '../../../contract/notifications';

/**
 * A row's estimated height (px, gap included) before it is shown: the list measures each row it
 * shows (a row is as tall as its content), and a list too long to measure gives every row this.
 */
export const NOTIFICATION_ROW_HEIGHT = 96;

/** A link inside the app ("/feeds/home", "/search?…"), not another site's. */
export const isInAppLink = (link: string) => link.startsWith('/') && !link.startsWith('//');

/**
 * One notification: its title and body (each up to 3 lines, the row as tall as they are), and
 * when it came. Unread ones are marked. The title opens the notification's link when it has one
 * (`onOpen`: the page marks it read and, for a link inside the app, goes there); an unread one
 * has "Mark as read" (`onMarkRead`).
 */
export function NotificationRow(props: {
  item: Notification;
  onOpen?: (item: Notification, event: MouseEvent<HTMLAnchorElement>) => void;
  onMarkRead?: (item: Notification) => void;
}) {
  const { item, onOpen, onMarkRead } = props;
  const inApp = item.link !== null && isInAppLink(item.link);
  return (
    <article className={item.read ? 'notification' : 'notification unread'}>
      {item.read ? null : <span className="visually-hidden">Unread</span>}
      {!item.read && onMarkRead ? (
        <button
          type="button"
          className="button secondary small notification-actions"
          aria-label={`Mark "${item.title}" as read`}
          onClick={() => onMarkRead(item)}
        >
          Mark as read
        </button>
      ) : null}
      <p className="notification-title">
        {item.link !== null ? (
          <a
            href={item.link}
            target={inApp ? undefined : '_blank'}
            rel={inApp ? undefined : 'noopener noreferrer'}
            onClick={onOpen ? (event) => onOpen(item, event) : undefined}
          >
            {item.title}
          </a>
        ) : (
          item.title
        )}
      </p>
      <p className="notification-body">{item.body}</p>
      <time dateTime={item.created_at}>{formatWhen(new Date(item.created_at), new Date())}</time>
    </article>
  );
}
