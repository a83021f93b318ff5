import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate } from '@tanstack/react-router';
import type { Source } from '../../../contract/sources';
import { ShellLink } from '../../layout/shell-link';
import { landingRoute } from '../../lib/landing';
import { routesFor } from '../../lib/routes';
import { sourceTitle } from '../../lib/sources';
import { useShell } from '../../shell-context';
import { AddToFeeds } from './add-to-feeds';
import { statusSummary } from './status-text';
import { useFollowActions } from './use-follow-actions';

/**
 * The head of one source's page (/apps/{source}): its ingestion status in a line, and unfollow
 * (flag website_unfollow). Unfollowing goes to the next followed source, or to the landing
 * route when none is left (002 §4); add to feeds (flag my_feeds) chooses which of the user's
 * feeds read it.
 */
export function SourceHeader(props: {
  sourceKey: string;
  source: Source | undefined;
  /** The followed sources have been read (until then nothing is said). */
  loaded: boolean;
}) {
  useSignals();
  const { state, product } = useShell();
  const navigate = useNavigate();
  const { busy, unfollow } = useFollowActions();
  const flags = state.$flags.value;
  const r = routesFor(product);
  const { source } = props;
  const label = source?.label ?? sourceTitle(props.sourceKey, product);

  const onUnfollow = async () => {
    const next = await unfollow({ key: props.sourceKey });
    if (next === undefined) return;
    await navigate({ to: next ? r.app(next) : landingRoute(flags, product) });
  };

  if (!props.loaded) return null;
  return (
    <div className="source-header">
      {source ? (
        <p className="source-status" role="status">
          {statusSummary(source.status, new Date())}{' '}
          <ShellLink to={r.settings.feeds}>Ingestion status</ShellLink>
        </p>
      ) : (
        <p className="source-status" role="status">
          You do not follow {label}. <ShellLink to={r.connect.website}>Browse sources</ShellLink>
        </p>
      )}
      {flags.my_feeds !== false ? <AddToFeeds sourceKey={props.sourceKey} label={label} /> : null}
      {source?.followed && flags.website_unfollow === true ? (
        <button
          type="button"
          className="button secondary small"
          disabled={busy === props.sourceKey}
          onClick={() => void onUnfollow()}
        >
          Unfollow
        </button>
      ) : null}
    </div>
  );
}
