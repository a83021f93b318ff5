import { useEffect } from 'react';
import { assistantStateFor, type AssistantState } from '../../state/assistant-state';
import { useShell } from '../../shell-context';
import { browserTimeZone } from '../search';

const timezone = () => browserTimeZone() ?? 'UTC';

/**
 * The tab's assistant state, watched while this screen shows it (the full page and the overlay
 * share it), with the chat state read when the screen opens.
 */
export function useAssistant(): AssistantState {
  const { client } = useShell();
  const assistant = assistantStateFor(client, timezone);
  useEffect(() => assistant.attach(), [assistant]);
  useEffect(() => {
    void assistant.loadChatState();
    // The time zone's first read while the page is idle, not in the task that sends the first
    // question.
    if (typeof requestIdleCallback !== 'function') return;
    const idle = requestIdleCallback(() => browserTimeZone());
    return () => cancelIdleCallback(idle);
  }, [assistant]);
  return assistant;
}
