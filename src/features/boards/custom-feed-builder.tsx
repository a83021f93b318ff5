import { useRouterState } from '@tanstack/react-router';
import { userMessage } from '../../lib/user-message';
import { useShell } from '../../shell-context';
import { AiPicksPanel, CreateAiFeedPage, SelectAiFeedTypePage } from './ai-feed-pages';
import {
  builderParams,
  parseRouteParams,
  type BuilderMode,
  type BuilderParams,
} from './builder-params';
import { draftFromBoard, emptyDraft } from './draft';
import { FeedEditor } from './feed-editor';
import { SelectFeedTypePage } from './select-feed-type-page';
import { FeedSuggestionPage, ReviewSuggestionPage } from './suggestion-pages';
import { TemplateCustomizePage, TemplateReadonlyPage } from './template-pages';
import { useBuilderNav, type BuilderNav } from './use-builder-nav';
import { useOp } from './use-op';
import './boards.css';

/** edit-feed and edit-ai-feed: the saved feed ('boards.get') in the feed form. */
function EditFeedPage(props: { params: BuilderParams; nav: BuilderNav; ai: boolean }) {
  const { params, nav } = props;
  const board = useOp('boards.get', params.boardId ? { id: params.boardId } : null);
  if (board.error) {
    return (
      <div className="feed-builder-page">
        <p className="form-error" role="alert">
          {userMessage(board.error)}
        </p>
        <button type="button" className="button secondary small" onClick={nav.close}>
          Close
        </button>
      </div>
    );
  }
  if (!board.data) {
    return (
      <p className="muted" role="status">
        Loading the feed…
      </p>
    );
  }
  const initial = draftFromBoard(board.data);
  return (
    <FeedEditor
      initial={props.ai ? { ...initial, kind: 'ai' } : initial}
      boardId={board.data.board_id}
      nav={nav}
      heading={`Edit ${board.data.board_name}`}
      extra={
        props.ai
          ? (draft, dispatch) => <AiPicksPanel draft={draft} dispatch={dispatch} />
          : undefined
      }
    />
  );
}

function BuilderPage(props: { params: BuilderParams; nav: BuilderNav }) {
  const { params, nav } = props;
  switch (params.page) {
    case 'select-feed-type':
      return <SelectFeedTypePage params={params} nav={nav} />;
    case 'feed-template-readonly':
      return <TemplateReadonlyPage params={params} nav={nav} />;
    case 'feed-template-customize':
      return <TemplateCustomizePage params={params} nav={nav} />;
    case 'create-feed':
      return (
        <FeedEditor
          initial={emptyDraft()}
          boardId={null}
          nav={nav}
          heading="Create a custom feed"
          back={() => nav.go({ page: 'select-feed-type' })}
        />
      );
    case 'edit-feed':
      return <EditFeedPage params={params} nav={nav} ai={false} />;
    case 'select-ai-feed-type':
      return <SelectAiFeedTypePage nav={nav} />;
    case 'create-ai-feed':
      return <CreateAiFeedPage nav={nav} />;
    case 'edit-ai-feed':
      return <EditFeedPage params={params} nav={nav} ai />;
    case 'feed-suggestion':
      return <FeedSuggestionPage nav={nav} />;
    case 'review-feed-suggestion':
      return <ReviewSuggestionPage params={params} nav={nav} />;
  }
}

/**
 * The custom feed builder (002 §2-5) on one of its pages. A page's own state starts afresh when
 * the page or the thing it shows changes (not when only the template search does).
 */
export function CustomFeedBuilder(props: { params: BuilderParams; mode: BuilderMode }) {
  const nav = useBuilderNav(props.mode);
  const { page, boardId, templateId, suggestionIds } = props.params;
  const key = [page, boardId, templateId, suggestionIds.join(',')].join('|');
  return (
    <div className="feed-builder" data-page={page}>
      <BuilderPage key={key} params={props.params} nav={nav} />
    </div>
  );
}

/** The custom-feed overlay's contents (overlay-type=custom-feed, already checked by the host). */
export function CustomFeedOverlay(props: { params: Record<string, string> }) {
  return <CustomFeedBuilder params={builderParams(props.params)} mode="overlay" />;
}

/** /custom-feed?type=custom-feed&page=...: the builder as a page of its own. */
export function CustomFeedPage() {
  const { product } = useShell();
  const location = useRouterState({ select: (s) => s.location });
  const parsed = parseRouteParams(location.search as Record<string, unknown>, product);
  if (parsed.status === 'error') {
    return (
      <section className="feed-builder" role="alert">
        <p className="form-error">This address does not open a page of the feed builder.</p>
        <p className="muted">{parsed.detail}</p>
      </section>
    );
  }
  return <CustomFeedBuilder params={parsed.params} mode="route" />;
}
