import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { FeedSuggestion } from '../../../contract/boards';
import { formatCount } from '../../lib/format';
import { routesFor } from '../../lib/routes';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import type { BuilderParams, BuilderTarget } from './builder-params';
import type { BuilderNav } from './use-builder-nav';
import { useOp } from './use-op';

/** A large choice button: a title and a line saying what it leads to. */
export function ChoiceButton(props: { title: string; text: string; onClick: () => void }) {
  return (
    <button type="button" className="fb-choice-card" onClick={props.onClick}>
      <span className="fb-choice-title">{props.title}</span>
      <span className="fb-choice-text muted">{props.text}</span>
    </button>
  );
}

const matches = (s: FeedSuggestion, needle: string) =>
  !needle ||
  s.board_name.toLowerCase().includes(needle) ||
  s.description.toLowerCase().includes(needle);

/** A list of suggestions to open one by one (templates) or to pick from (AI suggestions). */
export function SuggestionList(props: {
  suggestions: FeedSuggestion[];
  label: string;
  action: (s: FeedSuggestion) => { label: string; onClick: () => void };
}) {
  return (
    <ul className="fb-suggestion-list" aria-label={props.label}>
      {props.suggestions.map((s) => {
        const action = props.action(s);
        return (
          <li key={s.suggestion_id} className="fb-suggestion-item">
            <div>
              <p className="fb-suggestion-name">{s.board_name}</p>
              <p className="muted">
                {s.description ? `${s.description} · ` : ''}
                {s.count === 1 ? '1 document' : `${formatCount(s.count)} documents`}
              </p>
            </div>
            <button
              type="button"
              className="button secondary small"
              aria-label={`${action.label} ${s.board_name}`}
              onClick={action.onClick}
            >
              {action.label}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * select-feed-type: a custom feed, an AI feed, or a template (suggestions drawn from the
 * corpus) to view and customise. `search-template` holds the template search.
 */
export function SelectFeedTypePage(props: { params: BuilderParams; nav: BuilderNav }) {
  const { params, nav } = props;
  const { product } = useShell();
  const [search, setSearch] = useState(params.searchTemplate ?? '');
  const templates = useOp('boards.suggestions', {});
  const needle = search.trim().toLowerCase();
  const shown = templates.data?.results.filter((s) => matches(s, needle)) ?? [];
  const go = (target: BuilderTarget) => nav.go(target);

  return (
    <div className="feed-builder-page">
      <div className="builder-heading">
        <h3>Create a feed</h3>
        <Link
          to={routesFor(product).settings.feedsRoot}
          search={{}}
          className="button secondary small"
        >
          Manage feeds
        </Link>
      </div>
      <div className="fb-choice-grid">
        <ChoiceButton
          title="Custom feed"
          text="Choose its keywords, sources, filters and dates yourself."
          onClick={() => go({ page: 'create-feed' })}
        />
        <ChoiceButton
          title="AI feed"
          text="Pick companies, topics and attributes; the keywords and sources are proposed for you."
          onClick={() => go({ page: 'select-ai-feed-type' })}
        />
      </div>
      <section className="builder-section" aria-labelledby="templates-title">
        <h4 id="templates-title">Start from a template</h4>
        <input
          className="fb-text-input"
          type="search"
          aria-label="Search templates"
          placeholder="Search templates"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            nav.go(
              { page: 'select-feed-type', 'search-template': event.target.value },
              { replace: true },
            );
          }}
        />
        {templates.error ? (
          <p className="form-error" role="alert">
            {userMessage(templates.error)}
          </p>
        ) : null}
        {templates.loading && !templates.data ? <p className="muted">Loading templates…</p> : null}
        {templates.data && shown.length === 0 ? (
          <p className="muted">
            {needle
              ? `No template matches "${search.trim()}".`
              : 'No templates yet: follow a few sources first.'}
          </p>
        ) : null}
        {shown.length ? (
          <SuggestionList
            suggestions={shown}
            label="Templates"
            action={(s) => ({
              label: 'View',
              onClick: () =>
                go({
                  page: 'feed-template-readonly',
                  'template-id': s.suggestion_id,
                  'search-template': search || undefined,
                }),
            })}
          />
        ) : null}
      </section>
    </div>
  );
}
