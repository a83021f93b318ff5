import { useReducer, useState, type Dispatch, type FormEvent, type ReactNode } from 'react';
import { isApiErrorLike, userMessage } from '../../lib/user-message';
import {
  draftDefinition,
  draftProblems,
  draftReducer,
  type DraftAction,
  type FeedDraft,
} from './draft';
import { DurationPicker } from './duration-picker';
import { FeedPreview } from './feed-preview';
import { KeywordEditor } from './keyword-editor';
import { SourceFilterEditor } from './source-filter-editor';
import { SourcePicker } from './source-picker';
import type { BuilderNav } from './use-builder-nav';
import { useOp } from './use-op';
import { useSaveFeed } from './use-save-feed';

type FieldProblems = { name?: string; keywords?: string };

/** A refused save's field issues (the contract's messages, checked again on the server). */
function issuesOf(error: unknown): FieldProblems {
  if (!isApiErrorLike(error) || !error.issues) return {};
  const out: FieldProblems = {};
  for (const issue of error.issues) {
    if (issue.path.startsWith('board_name')) out.name ??= issue.message;
    if (issue.path.startsWith('definition.keywords')) out.keywords ??= issue.message;
  }
  return out;
}

/**
 * The custom feed form (002 §2-5): name, description, keywords, sources, filters and date
 * range beside a live preview; saving creates the feed (or saves the edited one) while the
 * loading text cycles, then opens the feed. `extra` renders above the form with the draft's
 * dispatch (an AI feed's picks, a suggestion's reasons).
 */
export function FeedEditor(props: {
  initial: FeedDraft;
  /** Set when editing a saved feed. */
  boardId: string | null;
  nav: BuilderNav;
  heading: string;
  back?: () => void;
  extra?: (draft: FeedDraft, dispatch: Dispatch<DraftAction>) => ReactNode;
}) {
  const [draft, dispatch] = useReducer(draftReducer, props.initial);
  const [tried, setTried] = useState(false);
  const { save: saveFeed, saving, loadingText, failure } = useSaveFeed(props.nav);
  const sources = useOp('sources.list', {}, { stores: ['sources'] });

  const problems: FieldProblems = { ...(tried ? draftProblems(draft) : {}), ...issuesOf(failure) };
  const editing = props.boardId !== null;

  const save = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const found = draftProblems(draft);
    if (found.name) document.getElementById('feed-name')?.focus();
    if (found.name || found.keywords) return;
    void saveFeed(draft, props.boardId);
  };

  const fieldIssues = issuesOf(failure);
  const formError =
    failure && !fieldIssues.name && !fieldIssues.keywords ? userMessage(failure) : null;

  return (
    <div className="feed-builder-page">
      <div className="builder-heading">
        {props.back ? (
          <button type="button" className="button secondary small" onClick={props.back}>
            Back
          </button>
        ) : null}
        <h3>{props.heading}</h3>
      </div>
      {props.extra?.(draft, dispatch)}
      <div className="builder-columns">
        <form className="builder-form" noValidate onSubmit={save}>
          <div className="form-field">
            <label htmlFor="feed-name">Feed name</label>
            <input
              id="feed-name"
              className="fb-text-input"
              value={draft.name}
              maxLength={200}
              aria-invalid={problems.name ? true : undefined}
              aria-describedby={problems.name ? 'feed-name-error' : undefined}
              onChange={(event) => dispatch({ type: 'name', value: event.target.value })}
            />
            {problems.name ? (
              <p id="feed-name-error" className="field-error">
                {problems.name}
              </p>
            ) : null}
          </div>
          <div className="form-field">
            <label htmlFor="feed-description">Description</label>
            <textarea
              id="feed-description"
              className="fb-text-input"
              rows={2}
              maxLength={2000}
              value={draft.description}
              onChange={(event) => dispatch({ type: 'description', value: event.target.value })}
            />
          </div>
          <KeywordEditor
            keywords={draft.keywords}
            active={draft.active}
            dispatch={dispatch}
            error={problems.keywords}
          />
          <SourcePicker
            sources={sources.data}
            error={sources.error}
            selected={draft.sources}
            dispatch={dispatch}
          />
          <SourceFilterEditor filters={draft.filters} sources={sources.data} dispatch={dispatch} />
          <DurationPicker value={draft.dateRange} dispatch={dispatch} />
          {formError ? (
            <p className="form-error" role="alert">
              {formError}
            </p>
          ) : null}
          <div className="builder-actions">
            <button
              type="submit"
              className="button primary"
              disabled={saving}
              aria-busy={saving || undefined}
            >
              {editing ? 'Save feed' : 'Create feed'}
            </button>
            <button
              type="button"
              className="button secondary"
              disabled={saving}
              onClick={props.nav.close}
            >
              Cancel
            </button>
            <p className="fb-loading-text" role="status" aria-live="polite">
              {loadingText ?? ''}
            </p>
          </div>
        </form>
        <FeedPreview definition={draftDefinition(draft, { validOnly: true })} />
      </div>
    </div>
  );
}
