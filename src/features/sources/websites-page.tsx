import { useSignals } from '@preact/signals-react/runtime';
import { useRouterState } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { ShellLink } from '../../layout/shell-link';
import { normalizePath, routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { PriorityBar } from './priority-bar';
import { catalogueSections, followedOrder, withFollowed } from './source-rules';
import { SourceRows } from './source-rows';
import { useCatalogue, useFollowedSources } from './use-sources';
import { RetryAlert } from '../../shell/retry-alert';

/**
 * /connect/website: the source catalogue (000 §3) in its groups, each source followable; and
 * /connect/website/followed: what the user follows, with bulk priority (002 §5).
 */
export function WebsitesPage() {
  const { product } = useShell();
  const r = routesFor(product);
  const pathname = useRouterState({ select: (s) => normalizePath(s.location.pathname) });
  const followedView = pathname === r.connect.websiteFollowed;
  return (
    <section className="sources-page">
      <nav className="view-switch" aria-label="Sources">
        <ShellLink
          to={r.connect.website}
          className={followedView ? 'view-link' : 'view-link active'}
          aria-current={followedView ? undefined : 'page'}
        >
          All sources
        </ShellLink>
        <ShellLink
          to={r.connect.websiteFollowed}
          className={followedView ? 'view-link active' : 'view-link'}
          aria-current={followedView ? 'page' : undefined}
        >
          Followed
        </ShellLink>
        <ShellLink to={r.connect.rss} className="view-link">
          Add by address
        </ShellLink>
      </nav>
      {followedView ? <FollowedSources /> : <Catalogue />}
    </section>
  );
}

function Catalogue() {
  const { catalogue, error, reload } = useCatalogue();
  const followed = useFollowedSources();
  const [query, setQuery] = useState('');
  const filterId = useId();
  if (error !== null && catalogue === null) {
    return <RetryAlert error={error} onRetry={reload} />;
  }
  if (catalogue === null) return <p className="muted">Loading the catalogue…</p>;
  const sections = catalogueSections(withFollowed(catalogue, followed), query);
  return (
    <>
      <div className="form-field catalogue-filter">
        <label htmlFor={filterId}>Find a source</label>
        <input
          id={filterId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
        />
      </div>
      {sections.length === 0 ? <p>No source matches “{query.trim()}”.</p> : null}
      {sections.map((section) => (
        <section key={section.title} className="catalogue-section">
          <h2>{section.title}</h2>
          <SourceRows sources={section.sources} label={section.title} />
        </section>
      ))}
    </>
  );
}

function FollowedSources() {
  useSignals();
  const { state } = useShell();
  const sources = useFollowedSources(5000);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  if (sources === null) return <p className="muted">Loading…</p>;
  const followed = followedOrder(sources);
  if (followed.length === 0) {
    return <p>You follow no sources yet. Follow some from the catalogue.</p>;
  }
  // Selections of sources no longer followed drop out.
  const live = new Set([...selected].filter((id) => followed.some((s) => s.source_id === id)));
  const toggle = (id: string) =>
    setSelected(() => {
      const next = new Set(live);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const withPriority = state.$flags.value.website_priority === true;
  return (
    <>
      {withPriority ? <PriorityBar selected={live} onDone={() => setSelected(new Set())} /> : null}
      <SourceRows
        sources={followed}
        label="Followed sources"
        selection={withPriority ? { selected: live, onToggle: toggle } : undefined}
      />
    </>
  );
}
