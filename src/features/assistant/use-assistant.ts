import { useEffect } from 'react';
import { assistantStateFor, type AssistantState } from '../../state/assistant-state';
import { useShell } from '../../shell-context';
import { browserTimeZone } from '../search/search-view';
import { warmAnswers } from './answer-warmup';

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
    // While the page is idle, not in the tasks that send the first question and render its
    // answer: the time zone's first read, and the answer renderer's first runs.
    if (typeof requestIdleCallback !== 'function') return;
    const idle = requestIdleCallback(() => browserTimeZone());
    const cancelWarm = warmAnswers();
    return () => {
      cancelIdleCallback(idle);
      cancelWarm();
    };
  }, [assistant]);
  return assistant;
}
