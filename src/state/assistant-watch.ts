import { batch, signal, type Signal } from '@preact/signals-react';
import type { ChatUpdate } from '../../contract/assistant';
import type { WorkerEvent } from '../../contract/worker-api';
import type { WorkspaceClient } from '../workspace-client';
import { applyPatch, chatView, type ChatView } from './assistant-chat';

type Patch = Extract<ChatUpdate, { kind: 'patch' }>;

/** A question on its way to the worker (shown at once, before the chat has it). */
export type PendingQuestion = { prompt: string; failed: boolean };

/**
 * The watched chat: it changes only through the worker's 'ask' events and ask.watch snapshots.
 * A reset replaces it, a patch appends to the streaming answer when its `length` says nothing
 * was missed, else the chat is asked for again. A chat that arrives takes the place of the
 * pending question (`$pending`) unless that one failed.
 */
export function createChatWatch(client: WorkspaceClient, $pending: Signal<PendingQuestion | null>) {
  const $chat = signal<ChatView | null>(null);
  /** Loading the active session's messages failed. */
  const $openFailed = signal(false);

  let watching: string | null = null;
  let snapshot: Promise<void> | null = null;
  let buffered: Patch[] = [];
  let round = 0;

  const show = (chat: Parameters<typeof chatView>[0]) => {
    $chat.value = chatView(chat, $chat.peek());
    $openFailed.value = false;
    if ($pending.peek()?.failed === false) $pending.value = null;
  };

  /**
   * The session's messages from the worker; it sends updates from now on. Patches that come
   * while the snapshot is on its way are kept and applied after it (those it already holds are
   * stale and skipped): dropping them would leave a gap, and asking again meanwhile would drop
   * more, for as long as the answer streams.
   */
  const watch = (sessionId: string) => {
    const mine = ++round;
    watching = sessionId;
    buffered = [];
    snapshot = client.call('ask.watch', { sessionId }).then(
      (chat) => {
        if (mine !== round) return;
        snapshot = null;
        const held = buffered;
        buffered = [];
        batch(() => {
          show(chat);
          for (const patch of held) applyOne(sessionId, patch);
        });
      },
      () => {
        if (mine !== round) return;
        snapshot = null;
        buffered = [];
        $openFailed.value = true;
      },
    );
    return snapshot;
  };

  const applyOne = (sessionId: string, patch: Patch) => {
    const chat = $chat.peek();
    if (!chat) return;
    const result = applyPatch(chat, patch);
    if (result.kind === 'applied') $chat.value = result.view;
    else if (result.kind === 'gap') void watch(sessionId);
  };

  const unwatch = () => {
    if (watching === null) return;
    const sessionId = watching;
    watching = null;
    round += 1;
    snapshot = null;
    void client.call('ask.unwatch', { sessionId }).catch(() => {});
  };

  const handle = (event: WorkerEvent) => {
    // A rename elsewhere reaches the chat as the worker's patch (its assistant_sessions watch):
    // the chat is not read again when the session changes, a megabyte answer would be cloned
    // to the tab once more for a title.
    if (event.type !== 'ask' || event.sessionId !== watching) return;
    const { update } = event;
    if (update.kind === 'reset') {
      // Newer than any snapshot still on its way, and than every patch held for it.
      if (snapshot) {
        round += 1;
        snapshot = null;
        buffered = [];
      }
      batch(() => show(update.chat));
      return;
    }
    if (snapshot) buffered.push(update);
    else applyOne(event.sessionId, update);
  };

  return {
    $chat,
    $openFailed,
    watch,
    unwatch,
    handle,
    /** Whether some session is watched now. */
    watching: () => watching !== null,
  };
}
