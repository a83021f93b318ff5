import { ShellLink } from '../../layout/shell-link';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';

/**
 * A feed page's ways to grow it: follow one more source, build one more feed. Always offered,
 * not only by an empty feed (issue 18).
 */
export function FeedActions() {
  const { product } = useShell();
  const r = routesFor(product);
  return (
    <div className="feed-actions">
      <ShellLink to={r.connect.rss} className="button secondary small">
        Add source
      </ShellLink>
      <ShellLink to={r.customFeed} className="button secondary small">
        New feed
      </ShellLink>
    </div>
  );
}
