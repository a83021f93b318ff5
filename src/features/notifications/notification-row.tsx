import { formatWhen } from '../../lib/format';
import type { Notification } from '../../../contract/notifications';

/** Every row is this tall (px), gap included: the virtual list places rows without measuring. */
export const NOTIFICATION_ROW_HEIGHT = 96;

/** One notification: title, one line of its body, and when it came. Unread ones are marked. */
export function NotificationRow(props: { item: Notification }) {
  const { item } = props;
  return (
    <article className={item.read ? 'notification' : 'notification unread'}>
      {item.read ? null : <span className="visually-hidden">Unread</span>}
      <p className="notification-title">{item.title}</p>
      <p className="notification-body">{item.body}</p>
      <time dateTime={item.created_at}>{formatWhen(new Date(item.created_at), new Date())}</time>
    </article>
  );
}
