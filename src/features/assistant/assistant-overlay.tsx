import { useSignals } from '@preact/signals-react/runtime';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { ChatView } from './chat-view';
import { useAssistant } from './use-assistant';

/**
 * The assistant overlay's contents (overlay-type=ask-{product}, 001 §2): the same chat as the
 * full page, beside the page the user is on. It opens on the tab's active session, else the
 * last active one of the chat state; "Full screen" continues it on the full page. With its
 * companion `overlay-preview_askneedl` (the document a preview showed) it starts a new chat
 * about that document instead.
 */
export function AssistantOverlay(props: { params: Record<string, string> }) {
  useSignals();
  const { product } = useShell();
  const assistant = useAssistant();
  const active = assistant.$sessionId.value;
  const document = props.params.preview_askneedl?.trim() || null;

  useEffect(() => {
    let alive = true;
    if (document) {
      assistant.clear();
      void assistant.setChatState({
        searchWithin: 'document',
        currentFeedOrDocumentId: document,
        webSearch: false,
      });
      return undefined;
    }
    void assistant.loadChatState().then((chatState) => {
      const idle = assistant.$sessionId.peek() === null && assistant.$pending.peek() === null;
      if (alive && idle && chatState.lastActiveSessionId) {
        assistant.open(chatState.lastActiveSessionId);
      }
    });
    return () => {
      alive = false;
    };
  }, [assistant, document]);

  const full = routesFor(product).assistant.full;
  return (
    <ChatView
      assistant={assistant}
      actions={
        // The full page leaves the overlay behind: no overlay- parameters go with it.
        <Link
          className="button secondary small"
          to={full}
          search={active ? { sessionId: active } : {}}
        >
          Full screen
        </Link>
      }
    />
  );
}
