import { useState } from 'react';
import { formatCount } from '../../lib/format';
import { userMessage } from '../../lib/user-message';
import type { BuilderParams } from './builder-params';
import { draftFromSuggestions } from './draft';
import { FeedEditor } from './feed-editor';
import { SuggestionReasons } from './suggestion-summary';
import { SuggestionsLoader } from './template-pages';
import type { BuilderNav } from './use-builder-nav';
import { useOp } from './use-op';

/**
 * feed-suggestion: feeds the server proposes from what the user follows ('boards.suggestions').
 * One or several are picked and reviewed together as one feed.
 */
export function FeedSuggestionPage(props: { nav: BuilderNav }) {
  const { nav } = props;
  const suggestions = useOp('boards.suggestions', {});
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));
  const list = suggestions.data?.results ?? [];

  return (
    <div className="feed-builder-page">
      <div className="builder-heading">
        <button
          type="button"
          className="button secondary small"
          onClick={() => nav.go({ page: 'select-ai-feed-type' })}
        >
          Back
        </button>
        <h3>Suggested feeds</h3>
      </div>
      {suggestions.error ? (
        <p className="form-error" role="alert">
          {userMessage(suggestions.error)}
        </p>
      ) : null}
      {suggestions.loading && !suggestions.data ? (
        <p className="muted" role="status">
          Loading suggestions…
        </p>
      ) : null}
      {suggestions.data && list.length === 0 ? (
        <p className="muted">No suggestions yet: follow a few sources, or build from picks.</p>
      ) : null}
      {list.length ? (
        <ul className="fb-suggestion-list" aria-label="Suggested feeds">
          {list.map((s) => (
            <li key={s.suggestion_id} className="fb-suggestion-item fb-checkable">
              <input
                type="checkbox"
                id={`suggestion-${s.suggestion_id}`}
                checked={picked.includes(s.suggestion_id)}
                onChange={() => toggle(s.suggestion_id)}
              />
              <label htmlFor={`suggestion-${s.suggestion_id}`}>
                <span className="fb-suggestion-name">{s.board_name}</span>
                <span className="muted">
                  {' '}
                  · {s.count === 1 ? '1 document' : `${formatCount(s.count)} documents`}
                </span>
                {s.reasons.length ? <span className="muted fb-block">{s.reasons[0]}</span> : null}
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="builder-actions">
        <button
          type="button"
          className="button primary"
          disabled={picked.length === 0}
          onClick={() => nav.go({ page: 'review-feed-suggestion', 'suggestion-ids': picked })}
        >
          {picked.length > 1 ? `Review ${picked.length} as one feed` : 'Review'}
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => nav.go({ page: 'create-ai-feed' })}
        >
          Build from picks instead
        </button>
      </div>
    </div>
  );
}

/**
 * review-feed-suggestion: the proposal (its keywords, sources, reasons and count, and a live
 * preview) in the feed form, to change and save.
 */
export function ReviewSuggestionPage(props: { params: BuilderParams; nav: BuilderNav }) {
  const { params, nav } = props;
  const back = () => nav.go({ page: 'select-ai-feed-type' });
  return (
    <SuggestionsLoader
      ids={params.suggestionIds}
      gone="This proposal is no longer available. Make a new one."
      back={back}
    >
      {(found) => (
        <FeedEditor
          initial={draftFromSuggestions(found)}
          boardId={null}
          nav={nav}
          heading="Review your feed"
          back={back}
          extra={() => (
            <details className="fb-proposal-summary" open>
              <summary>What was proposed</summary>
              <SuggestionReasons suggestions={found} />
            </details>
          )}
        />
      )}
    </SuggestionsLoader>
  );
}
