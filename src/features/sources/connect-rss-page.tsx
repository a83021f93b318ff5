import { useId, useState, type FormEvent } from 'react';
import { followedText, type Source } from '../../../contract/sources';
import { ShellLink } from '../../layout/shell-link';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import { RssTopics } from './rss-topics';
import { SourceRows } from './source-rows';
import { followFailureText } from './use-follow-actions';
import { useFollowedSources } from './use-sources';

/**
 * /connect/rss: follow an RSS or Atom feed, or a website, by its address (sources.followUrl).
 * The server checks the address and fetches it within seconds; a malformed or unreachable
 * address comes back as a 400 whose message is shown as it is. The feeds the user follows are
 * listed below with their ingestion status.
 */
export function ConnectRssPage() {
  const { client, product } = useShell();
  const r = routesFor(product);
  const urlId = useId();
  const labelId = useId();
  const errorId = useId();
  const [url, setUrl] = useState('');
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<Source | null>(null);
  const followed = useFollowedSources(5000);
  const feeds = followed?.filter((s) => s.kind === 'rss' || s.kind === 'website') ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!url.trim()) {
      setProblem('Enter the address of a feed or a website.');
      return;
    }
    setBusy(true);
    try {
      const source = await client.call('sources.followUrl', {
        url: url.trim(),
        ...(label.trim() ? { label: label.trim() } : {}),
      });
      showToast('success', followedText(source.label));
      setAdded(source);
      setUrl('');
      setLabel('');
    } catch (error) {
      setProblem(followFailureText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sources-page">
      <form className="follow-url-form" onSubmit={(event) => void submit(event)} noValidate>
        <h2>Follow a feed or a website</h2>
        <p className="muted">
          Paste the address of an RSS or Atom feed, or of a website: its feed is found for you, or
          its articles are read as they are.
        </p>
        <div className="form-field">
          <label htmlFor={urlId}>Feed or website address</label>
          <input
            id={urlId}
            name="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com/feed.xml"
            value={url}
            aria-invalid={problem !== null || undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => setUrl(event.currentTarget.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor={labelId}>Name (optional)</label>
          <input
            id={labelId}
            name="label"
            value={label}
            onChange={(event) => setLabel(event.currentTarget.value)}
          />
        </div>
        {problem ? (
          <p id={errorId} className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <button
          type="submit"
          className="button primary"
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {busy ? 'Following…' : 'Follow'}
        </button>
        {added ? (
          <p className="follow-added" role="status">
            Following {added.label}. <ShellLink to={r.app(added.key)}>See its documents</ShellLink>
          </p>
        ) : null}
      </form>
      <section aria-labelledby="followed-feeds">
        <h2 id="followed-feeds">Feeds you follow</h2>
        {feeds === null ? <p className="muted">Loading…</p> : null}
        {feeds?.length === 0 ? (
          <p>
            You follow no RSS feeds or websites yet.
            {followed && followed.length > 0 ? (
              <>
                {' '}
                You follow {followed.length} built-in {followed.length === 1 ? 'source' : 'sources'}{' '}
                (news and filings):{' '}
                <ShellLink to={r.settings.feeds}>see them in Ingestion status</ShellLink>.
              </>
            ) : null}
          </p>
        ) : null}
        {feeds?.length ? <SourceRows sources={feeds} label="Feeds you follow" /> : null}
      </section>
      <RssTopics />
    </section>
  );
}
