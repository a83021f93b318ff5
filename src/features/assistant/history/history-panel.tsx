import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../../../contract/assistant';
import { isTablet } from '../../../lib/breakpoints';
import { landingRoute } from '../../../lib/landing';
import { productLabel } from '../../../lib/product';
import { userMessage } from '../../../lib/user-message';
import { ShellLink } from '../../../layout/shell-link';
import { SkeletonRow } from '../../../lists/virtual-list';
import { useShell } from '../../../shell-context';
import { RetryAlert } from '../../../shell/retry-alert';
import { HistoryList } from './history-list';
import { HistorySearchModal } from './history-search-modal';
import { SESSION_DELETED, historyToast } from './history-toast';
import { useHistorySessions, useToday } from './use-history-sessions';
import './history.css';

/**
 * The side panel's states (001 §2): open while it slides out, opened once it has, closed when
 * collapsed to its icon.
 */
export type HistoryPanelState = 'open' | 'opened' | 'closed';
/** How long the panel takes to slide out (history.css). */
export const HISTORY_SLIDE_MS = 200;

/**
 * The history side panel (001 §2 "History side panel"): the Ask {product} entry (to the landing
 * route), Start new chat, the HISTORY heading with its search, and the user's sessions grouped
 * by time, each with its badge and a delete action. Shown when ask_{product}_history is on.
 *
 * `layout: 'page'` is the history route's: the panel is the page, with no collapse toggle.
 * Deleting the active session clears the chat: `onActiveDeleted`, by default `onNewChat`.
 */
export function AssistantHistoryPanel(props: {
  activeSessionId: string | null;
  onSelect(sessionId: string): void;
  onNewChat(): void;
  onActiveDeleted?: () => void;
  layout?: 'side' | 'page';
}) {
  useSignals();
  const { client, state, product } = useShell();
  const page = props.layout === 'page';
  // Beside the chat on a tablet or smaller the panel starts collapsed: the chat needs the room.
  const [panel, setPanel] = useState<HistoryPanelState>(() =>
    !page && isTablet(window.innerWidth) ? 'closed' : 'opened',
  );
  const [searching, setSearching] = useState(false);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const history = useHistorySessions();
  const now = useToday();

  useEffect(() => {
    if (panel !== 'open') return;
    // transitionend does not come when motion is reduced (no transition): a timer ends it too.
    const timer = setTimeout(() => setPanel('opened'), HISTORY_SLIDE_MS);
    return () => clearTimeout(timer);
  }, [panel]);

  if (state.$flags.value[`ask_${product}_history`] !== true) return null;

  const remove = async (session: SessionSummary) => {
    setDeletingId(session.id);
    try {
      await client.call('ask.delete', { sessionId: session.id });
      history.drop(session.id);
      historyToast('success', SESSION_DELETED);
      if (session.id === props.activeSessionId) (props.onActiveDeleted ?? props.onNewChat)();
    } catch (error) {
      historyToast('error', userMessage(error));
    } finally {
      setDeletingId(null);
      history.refresh();
    }
  };

  const closed = panel === 'closed';
  const toggle = () => setPanel(closed ? 'open' : 'closed');

  return (
    <aside
      className={page ? 'history-panel page' : 'history-panel'}
      data-state={panel}
      aria-label="Chat history"
      onTransitionEnd={(event) => {
        if (event.target === event.currentTarget && panel === 'open') setPanel('opened');
      }}
    >
      <div className="history-top">
        {page ? null : (
          <button
            type="button"
            className="icon-button history-toggle"
            aria-expanded={!closed}
            aria-label={closed ? 'Open history' : 'Collapse history'}
            title={closed ? 'Open history' : 'Collapse history'}
            onClick={toggle}
          >
            <span aria-hidden="true">☰</span>
          </button>
        )}
        {closed ? null : (
          <ShellLink to={landingRoute(state.$flags.value, product)} className="history-entry">
            Ask {productLabel(product)}
          </ShellLink>
        )}
      </div>
      {closed ? null : (
        <div className="history-body">
          <button type="button" className="button secondary block" onClick={props.onNewChat}>
            Start new chat
          </button>
          <div className="history-heading">
            <h2>HISTORY</h2>
            <button
              type="button"
              className="icon-button"
              aria-label="Search history"
              title="Search history"
              onClick={() => setSearching(true)}
            >
              <span aria-hidden="true">⌕</span>
            </button>
          </div>
          {history.error !== null ? (
            <RetryAlert error={history.error} onRetry={history.refresh} />
          ) : null}
          <Sessions
            sessions={history.sessions}
            failed={history.error !== null}
            now={now}
            activeSessionId={props.activeSessionId}
            deletingId={deletingId}
            onSelect={props.onSelect}
            onDelete={(session) => void remove(session)}
          />
        </div>
      )}
      {searching ? (
        <HistorySearchModal onClose={() => setSearching(false)} onSelect={props.onSelect} />
      ) : null}
    </aside>
  );
}

function Sessions(props: {
  sessions: SessionSummary[] | null;
  failed: boolean;
  now: Date;
  activeSessionId: string | null;
  deletingId: string | null;
  onSelect: (sessionId: string) => void;
  onDelete: (session: SessionSummary) => void;
}) {
  if (props.sessions === null) {
    // A first read that failed shows its retry alert alone, not a list that never comes.
    if (props.failed) return null;
    return (
      <div className="history-loading" aria-busy="true">
        <SkeletonRow />
      </div>
    );
  }
  if (props.sessions.length === 0) {
    return (
      <div className="history-empty">
        <p className="history-empty-title">No conversations yet</p>
        <p className="muted">Ask anything to begin!</p>
      </div>
    );
  }
  return (
    <HistoryList
      sessions={props.sessions}
      now={props.now}
      activeSessionId={props.activeSessionId}
      deletingId={props.deletingId}
      onSelect={props.onSelect}
      onDelete={props.onDelete}
    />
  );
}
