import type { Source } from '../../../contract/sources';
import { ShellLink } from '../../layout/shell-link';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { statusFields } from './status-text';
import { useFollowedSources } from './use-sources';

/** Ingestion moves on its own: the table is re-read this often while it is shown. */
const STATUS_POLL_MS = 5000;

const KIND_LABELS: Record<Source['kind'], string> = {
  rss: 'RSS feed',
  website: 'Website',
  filings: 'Filings',
  builtin: 'Built-in',
};

/**
 * /settings/feeds: every followed source with its ingestion status (last run, next run, items,
 * last error in words), so a user sees why a source is empty.
 */
export function FeedSettingsPage() {
  const { product } = useShell();
  const r = routesFor(product);
  const sources = useFollowedSources(STATUS_POLL_MS);
  const now = new Date();
  return (
    <section className="settings-page">
      <p className="settings-links">
        <ShellLink to={r.connect.website}>Follow more sources</ShellLink>
        <ShellLink to={r.connect.rss}>Add a feed by address</ShellLink>
        <ShellLink to={r.settings.feedsRoot}>Manage your feeds</ShellLink>
      </p>
      {sources === null ? <p className="muted">Loading…</p> : null}
      {sources?.length === 0 ? <p>You follow no sources yet.</p> : null}
      {sources?.length ? (
        <div className="table-scroll">
          <table className="status-table">
            <caption>Sources you follow and how their reading goes</caption>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Kind</th>
                {statusFields(sources[0].status, now).map((field) => (
                  <th key={field.label} scope="col">
                    {field.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sources.map((source) => (
                <tr key={source.source_id} data-state={source.status.state}>
                  <th scope="row">
                    <ShellLink to={r.app(source.key)}>{source.label}</ShellLink>
                    {source.link_to_crawl ? (
                      <span className="muted small source-address">{source.link_to_crawl}</span>
                    ) : null}
                  </th>
                  <td>{KIND_LABELS[source.kind]}</td>
                  {statusFields(source.status, now).map((field) => (
                    <td key={field.label}>{field.value}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
