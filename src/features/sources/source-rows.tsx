import { useSignals } from '@preact/signals-react/runtime';
import { useRef } from 'react';
import type { Source } from '../../../contract/sources';
import { ShellLink } from '../../layout/shell-link';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { statusSummary } from './status-text';
import { useFollowActions } from './use-follow-actions';

/**
 * A list of sources: each with its name (a link to its documents once followed), its group,
 * its ingestion status when followed, and follow or unfollow (unfollow under the
 * website_unfollow flag). After an unfollow, focus moves on to the next source in the list.
 * With `selection`, each followed source has a checkbox for bulk actions.
 */
export function SourceRows(props: {
  sources: readonly Source[];
  label: string;
  selection?: { selected: ReadonlySet<string>; onToggle: (sourceId: string) => void };
}) {
  useSignals();
  const { state, product } = useShell();
  const r = routesFor(product);
  const { busy, follow, unfollow } = useFollowActions();
  const list = useRef<HTMLUListElement>(null);
  const canUnfollow = state.$flags.value.website_unfollow === true;
  const now = new Date();

  const onUnfollow = async (source: Source, index: number) => {
    const next = await unfollow(source);
    if (next === undefined) return;
    // The next source (or the last one left) takes the focus the removed button had.
    requestAnimationFrame(() => {
      const rows = list.current?.querySelectorAll<HTMLElement>('[data-source-action]') ?? [];
      rows[Math.min(index, rows.length - 1)]?.focus();
    });
  };

  return (
    <ul className="source-rows" ref={list} aria-label={props.label}>
      {props.sources.map((source, index) => {
        const pending = busy === source.key;
        return (
          <li key={source.key} className="source-row">
            {props.selection && source.followed ? (
              <input
                type="checkbox"
                aria-label={`Select ${source.label}`}
                checked={props.selection.selected.has(source.source_id)}
                onChange={() => props.selection?.onToggle(source.source_id)}
              />
            ) : null}
            <div className="source-row-text">
              <p className="source-name">
                {source.followed ? (
                  <ShellLink to={r.app(source.key)}>{source.label}</ShellLink>
                ) : (
                  source.label
                )}
                {source.priority ? <span className="badge">Priority</span> : null}
              </p>
              <p className="muted small">
                {source.followed
                  ? statusSummary(source.status, now)
                  : (source.group ?? source.kind)}
              </p>
            </div>
            {source.followed ? (
              canUnfollow ? (
                <button
                  type="button"
                  className="button secondary small"
                  data-source-action
                  disabled={pending}
                  aria-label={`Unfollow ${source.label}`}
                  onClick={() => void onUnfollow(source, index)}
                >
                  Unfollow
                </button>
              ) : null
            ) : (
              <button
                type="button"
                className="button primary small"
                data-source-action
                disabled={pending}
                aria-label={`Follow ${source.label}`}
                onClick={() => void follow(source)}
              >
                Follow
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
