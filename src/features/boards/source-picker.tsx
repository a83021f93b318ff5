import { useId, useState, type Dispatch } from 'react';
import type { Source } from '../../../contract/sources';
import { ShellLink } from '../../layout/shell-link';
import { userMessage } from '../../lib/user-message';
import type { DraftAction } from './draft';

/** Above this many sources the list gets a filter field. */
const FILTER_FROM = 8;

/**
 * The sources a feed reads, picked from the sources the user follows. None picked means every
 * followed source (and the ones followed later).
 */
export function SourcePicker(props: {
  sources: Source[] | null;
  error: unknown;
  selected: string[];
  dispatch: Dispatch<DraftAction>;
}) {
  const { sources, selected, dispatch } = props;
  const id = useId();
  const [filter, setFilter] = useState('');

  if (props.error) {
    return (
      <fieldset className="builder-section">
        <legend>Sources</legend>
        <p className="form-error" role="alert">
          {userMessage(props.error)}
        </p>
      </fieldset>
    );
  }
  const needle = filter.trim().toLowerCase();
  const shown = (sources ?? []).filter(
    (s) => !needle || s.label.toLowerCase().includes(needle) || s.key.includes(needle),
  );
  const picked = selected.length;

  return (
    <fieldset className="builder-section" aria-busy={sources === null || undefined}>
      <legend>Sources</legend>
      <div className="fb-section-bar">
        <p className="muted" role="status">
          {picked === 0
            ? 'Every source you follow'
            : `${picked} of ${sources?.length ?? picked} followed sources`}
        </p>
        {picked > 0 ? (
          <button
            type="button"
            className="button secondary small"
            onClick={() => dispatch({ type: 'allSources' })}
          >
            Use every source
          </button>
        ) : null}
      </div>
      {sources === null ? <p className="muted">Loading your sources…</p> : null}
      {sources?.length === 0 ? (
        <p className="muted">
          You follow no sources yet. <ShellLink to="/connect/rss">Follow a feed</ShellLink> to build
          a feed from it.
        </p>
      ) : null}
      {sources && sources.length > FILTER_FROM ? (
        <input
          className="fb-text-input"
          aria-label="Find a source"
          placeholder="Find a source"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      ) : null}
      {shown.length ? (
        <ul className="fb-source-options" aria-label="Followed sources">
          {shown.map((s) => (
            <li key={s.source_id}>
              <input
                type="checkbox"
                id={`${id}-${s.source_id}`}
                checked={selected.includes(s.source_id)}
                onChange={() => dispatch({ type: 'toggleSource', sourceId: s.source_id })}
              />
              <label htmlFor={`${id}-${s.source_id}`}>
                {s.label}
                {s.group ? <span className="muted"> · {s.group}</span> : null}
                {s.status.state === 'error' ? (
                  <span className="fb-source-problem">
                    {' '}
                    · {s.status.last_error ?? 'not reading'}
                  </span>
                ) : null}
              </label>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
