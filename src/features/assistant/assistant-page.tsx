import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useFillHeight } from '../../layout/use-fill-height';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { ChatView } from './chat-view';
import { AssistantHistoryPanel } from './history/history-panel';
import { useAssistant } from './use-assistant';

/** The sessionId of the address, if any. */
function useUrlSession(): string | null {
  const value: unknown = useRouterState({
    select: (s) => (s.location.search as Record<string, unknown>).sessionId,
  });
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * /ask-{product}/full?sessionId (001 §2): the chat full page with the history panel beside it;
 * also /ask-{product}, the navigation's assistant entry, with the navigation beside it.
 * The address and the active session stay in step: a sessionId in the address that differs
 * from the active session becomes active (none: a new chat); a session that becomes active here
 * (a new session's first answer, new chat) is written to the address, replacing the entry so
 * Back does not walk through them. Choosing a history session is a new entry.
 */
export function AssistantPage() {
  useSignals();
  const { product } = useShell();
  const navigate = useNavigate();
  const assistant = useAssistant();
  const urlSession = useUrlSession();
  const active = assistant.$sessionId.value;
  const seen = useRef<{ url: string | null; active: string | null } | null>(null);

  useEffect(() => {
    const last = seen.current;
    if (!last || urlSession !== last.url) {
      seen.current = { url: urlSession, active: urlSession };
      assistant.open(urlSession);
      return;
    }
    if (active !== last.active) {
      // In a task of its own: a new session becomes active in the task that renders the
      // question's first answer, and the address can follow a moment later.
      const write = setTimeout(() => {
        seen.current = { url: active, active };
        void navigate({
          to: '.',
          replace: true,
          search: (prev: Record<string, unknown>) => {
            const next = { ...prev };
            if (active) next.sessionId = active;
            else delete next.sessionId;
            return next;
          },
        });
      }, 0);
      return () => clearTimeout(write);
    }
  }, [urlSession, active, assistant, navigate]);

  // The page fills the window and the conversation scrolls inside it: the history panel and
  // the title stay in place (issue 18).
  const page = useRef<HTMLDivElement>(null);
  useFillHeight(page);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // /ask-{product} and /ask-{product}/full both show the chat; a session opens where it is.
  const here =
    pathname === routesFor(product).assistant.base ? pathname : routesFor(product).assistant.full;
  return (
    <div className="assistant-page" ref={page}>
      <AssistantHistoryPanel
        activeSessionId={active}
        onSelect={(sessionId) => void navigate({ to: here, search: { sessionId } })}
        onNewChat={() => assistant.newChat()}
      />
      <ChatView assistant={assistant} />
    </div>
  );
}
