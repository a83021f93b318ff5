import { useState, type Dispatch } from 'react';
import type { AiPicks } from '../../../contract/boards';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import type { DraftAction, FeedDraft } from './draft';
import { useFeedLoadingText } from './loading-text';
import { NO_PICKS, PicksEditor, pickCount } from './picks-editor';
import { ChoiceButton } from './select-feed-type-page';
import type { BuilderNav } from './use-builder-nav';
import { useOp } from './use-op';
import { rememberSuggestion } from './use-suggestions';

/** select-ai-feed-type: build from picks, or start from a suggested feed. */
export function SelectAiFeedTypePage(props: { nav: BuilderNav }) {
  const { nav } = props;
  return (
    <div className="feed-builder-page">
      <div className="builder-heading">
        <button
          type="button"
          className="button secondary small"
          onClick={() => nav.go({ page: 'select-feed-type' })}
        >
          Back
        </button>
        <h3>Create an AI feed</h3>
      </div>
      <div className="fb-choice-grid">
        <ChoiceButton
          title="From companies, topics and attributes"
          text="Pick what the feed is about; keywords and sources are proposed from your documents."
          onClick={() => nav.go({ page: 'create-ai-feed' })}
        />
        <ChoiceButton
          title="From suggested feeds"
          text="Feeds proposed from the sources you follow, to review and save."
          onClick={() => nav.go({ page: 'feed-suggestion' })}
        />
      </div>
    </div>
  );
}

/** Asks the server for a proposal ('boards.aiSmarts') while the loading text cycles. */
function usePropose() {
  const { client } = useShell();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const loadingText = useFeedLoadingText(busy);
  const propose = async (picks: AiPicks) => {
    setBusy(true);
    setFailure(null);
    try {
      return await client.call('boards.aiSmarts', picks);
    } catch (error) {
      setFailure(error);
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { propose, busy, loadingText, failure };
}

/** create-ai-feed: pick companies, topics and attributes; the proposal is reviewed next. */
export function CreateAiFeedPage(props: { nav: BuilderNav }) {
  const { nav } = props;
  const choices = useOp('boards.choices', {});
  const [picks, setPicks] = useState<AiPicks>(NO_PICKS);
  const { propose, busy, loadingText, failure } = usePropose();

  const submit = async () => {
    const suggestion = await propose(picks);
    if (!suggestion) return;
    rememberSuggestion(suggestion);
    nav.go({ page: 'review-feed-suggestion', 'suggestion-ids': [suggestion.suggestion_id] });
  };

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
        <h3>What should the feed follow?</h3>
      </div>
      {choices.error ? (
        <p className="form-error" role="alert">
          {userMessage(choices.error)}
        </p>
      ) : null}
      {choices.data ? (
        <PicksEditor choices={choices.data} picks={picks} onChange={setPicks} />
      ) : choices.loading ? (
        <p className="muted" role="status">
          Loading companies, topics and attributes…
        </p>
      ) : null}
      {failure ? (
        <p className="form-error" role="alert">
          {userMessage(failure)}
        </p>
      ) : null}
      <div className="builder-actions">
        <button
          type="button"
          className="button primary"
          disabled={busy || pickCount(picks) === 0}
          aria-busy={busy || undefined}
          onClick={() => void submit()}
        >
          Propose a feed
        </button>
        <p className="fb-loading-text" role="status" aria-live="polite">
          {loadingText ?? (pickCount(picks) === 0 ? 'Pick at least one.' : '')}
        </p>
      </div>
    </div>
  );
}

/**
 * edit-ai-feed's panel above the form: the feed's picks, changeable, and a new proposal from
 * them that replaces the keywords, sources and filters (name and dates stay).
 */
export function AiPicksPanel(props: { draft: FeedDraft; dispatch: Dispatch<DraftAction> }) {
  const { draft, dispatch } = props;
  const choices = useOp('boards.choices', {});
  const picks = draft.ai ?? NO_PICKS;
  const { propose, busy, loadingText, failure } = usePropose();
  const again = async () => {
    const suggestion = await propose(picks);
    if (suggestion)
      dispatch({ type: 'propose', definition: { ...suggestion.definition, ai: picks } });
  };
  return (
    <details className="fb-ai-picks-panel" open={pickCount(picks) === 0 || undefined}>
      <summary>
        Built from:{' '}
        {[...picks.companies, ...picks.topics, ...picks.attributes].join(', ') || 'nothing yet'}
      </summary>
      {choices.data ? (
        <PicksEditor
          choices={choices.data}
          picks={picks}
          onChange={(next) => dispatch({ type: 'picks', picks: next })}
        />
      ) : null}
      {failure ? (
        <p className="form-error" role="alert">
          {userMessage(failure)}
        </p>
      ) : null}
      <div className="builder-actions">
        <button
          type="button"
          className="button secondary small"
          disabled={busy || pickCount(picks) === 0}
          aria-busy={busy || undefined}
          onClick={() => void again()}
        >
          Propose keywords and sources again
        </button>
        <p className="fb-loading-text" role="status" aria-live="polite">
          {loadingText ?? ''}
        </p>
      </div>
    </details>
  );
}
