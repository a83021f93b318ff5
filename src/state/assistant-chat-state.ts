import { batch, signal } from '@preact/signals-react';
import { DEFAULT_CHAT_STATE, type ChatState } from '../../contract/assistant';
import type { WorkspaceClient } from '../workspace-client';

/**
 * The chat state (001 §3: scope, mode, last session), kept by the worker for every tab. A
 * change shows here at once and is stored by the worker; changes made before the stored state
 * arrived win over it (they were made later).
 */
export function createChatStateStore(client: WorkspaceClient) {
  const $chatState = signal<ChatState>(DEFAULT_CHAT_STATE);
  /** The worker's chat state has been read (until then the scope is not known). */
  const $chatStateReady = signal(false);
  let earlyEdits: Partial<ChatState> = {};

  const loadChatState = () =>
    client.call('ask.state', {}).then(
      (stored) => {
        const chatState = { ...stored, ...earlyEdits };
        earlyEdits = {};
        batch(() => {
          $chatState.value = chatState;
          $chatStateReady.value = true;
        });
        return chatState;
      },
      () => {
        $chatStateReady.value = true;
        return $chatState.peek();
      },
    );

  const setChatState = (patch: Partial<ChatState>) => {
    if (!$chatStateReady.peek()) earlyEdits = { ...earlyEdits, ...patch };
    $chatState.value = { ...$chatState.peek(), ...patch };
    return client.call('ask.setState', patch).then(
      (chatState) => {
        $chatState.value = chatState;
      },
      () => {},
    );
  };

  return { $chatState, $chatStateReady, loadChatState, setChatState };
}
