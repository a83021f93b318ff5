import type { ReactNode } from 'react';
import type { FeedSuggestion } from '../../../contract/boards';
import { userMessage } from '../../lib/user-message';
import type { BuilderParams } from './builder-params';
import { draftFromSuggestions } from './draft';
import { FeedEditor } from './feed-editor';
import { FeedPreview } from './feed-preview';
import { DefinitionSummary, SuggestionReasons } from './suggestion-summary';
import type { BuilderNav } from './use-builder-nav';
import { useOp } from './use-op';
import { useSaveFeed } from './use-save-feed';
import { useSuggestionsById } from './use-suggestions';

/** Suggestions by id, with what to show while they load or when one is gone. */
export function SuggestionsLoader(props: {
  ids: readonly string[];
  gone: string;
  back: () => void;
  children: (found: FeedSuggestion[]) => ReactNode;
}) {
  const state = useSuggestionsById(props.ids);
  if (state.error) {
    return (
      <p className="form-error" role="alert">
        {userMessage(state.error)}
      </p>
    );
  }
  if (!state.found) {
    return (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  }
  if (state.missing.length || !state.found.length) {
    return (
      <div className="feed-builder-page" role="status">
        <p>{props.gone}</p>
        <button type="button" className="button secondary small" onClick={props.back}>
          Back
        </button>
      </div>
    );
  }
  return <>{props.children(state.found)}</>;
}

const TEMPLATE_GONE = 'This template is no longer available. Choose another one.';

/** feed-template-readonly: a template as it stands, its reasons and a preview. */
export function TemplateReadonlyPage(props: { params: BuilderParams; nav: BuilderNav }) {
  const { params, nav } = props;
  const sources = useOp('sources.list', {}, { stores: ['sources'] });
  const { save, saving, loadingText, failure } = useSaveFeed(nav);
  const back = () =>
    nav.go({ page: 'select-feed-type', 'search-template': params.searchTemplate ?? undefined });
  return (
    <SuggestionsLoader ids={[params.templateId ?? '']} gone={TEMPLATE_GONE} back={back}>
      {([template]) => (
        <div className="feed-builder-page">
          <div className="builder-heading">
            <button type="button" className="button secondary small" onClick={back}>
              Back
            </button>
            <h3>{template.board_name}</h3>
          </div>
          {template.description ? <p>{template.description}</p> : null}
          <div className="builder-columns">
            <div>
              <DefinitionSummary definition={template.definition} sources={sources.data} />
              <SuggestionReasons suggestions={[template]} />
              {failure ? (
                <p className="form-error" role="alert">
                  {userMessage(failure)}
                </p>
              ) : null}
              <div className="builder-actions">
                <button
                  type="button"
                  className="button primary"
                  disabled={saving}
                  onClick={() =>
                    nav.go({
                      page: 'feed-template-customize',
                      'template-id': template.suggestion_id,
                      'search-template': params.searchTemplate ?? undefined,
                    })
                  }
                >
                  Customize
                </button>
                <button
                  type="button"
                  className="button secondary"
                  disabled={saving}
                  aria-busy={saving || undefined}
                  onClick={() => void save(draftFromSuggestions([template]), null)}
                >
                  Create as is
                </button>
                <p className="fb-loading-text" role="status" aria-live="polite">
                  {loadingText ?? ''}
                </p>
              </div>
            </div>
            <FeedPreview definition={template.definition} />
          </div>
        </div>
      )}
    </SuggestionsLoader>
  );
}

/** feed-template-customize: the template in the feed form, saved as a new feed. */
export function TemplateCustomizePage(props: { params: BuilderParams; nav: BuilderNav }) {
  const { params, nav } = props;
  const back = () =>
    nav.go({
      page: 'feed-template-readonly',
      'template-id': params.templateId ?? undefined,
      'search-template': params.searchTemplate ?? undefined,
    });
  return (
    <SuggestionsLoader ids={[params.templateId ?? '']} gone={TEMPLATE_GONE} back={back}>
      {(found) => (
        <FeedEditor
          initial={draftFromSuggestions(found)}
          boardId={null}
          nav={nav}
          heading={`Customize ${found[0].board_name}`}
          back={back}
        />
      )}
    </SuggestionsLoader>
  );
}
