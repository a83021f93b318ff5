import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { assistantLabel } from '../../../lib/product';
import { routesFor } from '../../../lib/routes';
import { useShell } from '../../../shell-context';
import { AssistantHistoryPanel } from './history-panel';

/**
 * /ask-{product}/history: the history panel as a page, full width (the overlay's history button
 * and small screens, where no panel fits beside the chat, come here). Choosing a session opens
 * it on the full page (/ask-{product}/full?sessionId, which makes it the active session);
 * Start new chat opens an empty one. The active session is the chat state's last one; deleting
 * it clears that, and the page stays.
 */
export function AssistantHistoryScreen() {
  useSignals();
  const { client, state, product } = useShell();
  const navigate = useNavigate();
  const [activeSessionId, setActiveSessionId] = useState<string | null>(null);
  const full = routesFor(product).assistant.full;

  useEffect(() => {
    let live = true;
    client.call('ask.state', {}).then(
      (chat) => {
        if (live) setActiveSessionId(chat.lastActiveSessionId);
      },
      // Without the chat state no row is marked active; the list itself still works.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client]);

  if (state.$flags.value[`ask_${product}_history`] !== true) {
    return (
      <section className="history-screen" role="status">
        <p>The {assistantLabel(product)} history is not turned on for your account.</p>
      </section>
    );
  }

  return (
    <section className="history-screen">
      <AssistantHistoryPanel
        layout="page"
        activeSessionId={activeSessionId}
        onSelect={(sessionId) => void navigate({ to: full, search: { sessionId } })}
        onNewChat={() => void navigate({ to: full, search: {} })}
        onActiveDeleted={() => {
          setActiveSessionId(null);
          void client.call('ask.setState', { lastActiveSessionId: null }).catch(() => {});
        }}
      />
    </section>
  );
}
