import { ShellLink } from '../../layout/shell-link';
import { isApiErrorLike } from '../../lib/user-message';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';

/** A feed read that failed because the feed is not there (deleted, unfollowed, a wrong link). */
export const isFeedNotFound = (error: unknown): boolean =>
  isApiErrorLike(error) && error.status === 404;

/**
 * What /feeds/{id} shows for a feed or source that does not exist: a clear statement and ways
 * on, never the server's raw "no such feed: …" (issue 18).
 */
export function FeedNotFound() {
  const { product } = useShell();
  const r = routesFor(product);
  return (
    <section className="empty-state" role="status" aria-labelledby="feed-not-found">
      <h2 id="feed-not-found">Feed not found</h2>
      <p>
        There is no feed or source at this address. It may have been deleted or unfollowed, or the
        link may be wrong.
      </p>
      <div className="empty-actions">
        <ShellLink to={r.feeds.home} className="button primary">
          Go to My Data
        </ShellLink>
        <ShellLink to={r.settings.feedsRoot} className="button secondary">
          Feed Manager
        </ShellLink>
        <ShellLink to={r.connect.rss} className="button secondary">
          Add source
        </ShellLink>
      </div>
    </section>
  );
}
