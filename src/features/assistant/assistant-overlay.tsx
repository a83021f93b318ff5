import { useSignals } from '@preact/signals-react/runtime';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { ChatView } from './chat-view';
import { useAssistant } from './use-assistant';

/**
 * The assistant overlay's contents (overlay-type=ask-{product}, 001 §2): the same chat as the
 * full page, beside the page the user is on. It opens on the tab's active session, else the
 * last active one of the chat state, saying so with a one-click new chat; "Full screen"
 * continues it on the full page. With its
 * companion `overlay-preview_askneedl` (the document a preview showed) it starts a new chat
 * about that document instead.
 */
export function AssistantOverlay(props: { params: Record<string, string> }) {
  useSignals();
  const { product } = useShell();
  const assistant = useAssistant();
  const active = assistant.$sessionId.value;
  const document = props.params.preview_askneedl?.trim() || null;
  // The session the overlay went back to by itself, said so with a way out (issue 18).
  const [resumed, setResumed] = useState<string | null>(null);

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
        setResumed(chatState.lastActiveSessionId);
      }
    });
    return () => {
      alive = false;
    };
  }, [assistant, document]);

  const full = routesFor(product).assistant.full;
  const title = assistant.$chat.value?.title;
  const documentTitle = props.params.preview_title?.trim() || null;
  const asking = document !== null && (assistant.$chat.value?.messages.length ?? 0) === 0;
  return (
    <ChatView
      assistant={assistant}
      notice={
        asking ? (
          <p className="chat-resumed" role="status">
            Asking about {documentTitle ? <>“{documentTitle}”</> : 'this document'}
          </p>
        ) : resumed !== null && resumed === active ? (
          <p className="chat-resumed" role="status">
            <span>Continuing your last chat{title ? <>: “{title}”</> : null}.</span>
            <button
              type="button"
              className="button small"
              onClick={() => {
                setResumed(null);
                assistant.newChat();
              }}
            >
              Start a new chat
            </button>
          </p>
        ) : null
      }
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
