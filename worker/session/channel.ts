import type { BroadcastChannelLike } from '../deps';

/**
 * What worker instances tell each other on `${product}-session` (the dedicated-worker
 * fallback, where each tab has its own worker): one tagged union on `kind`.
 */
export type ChannelMessage =
  | {
      kind: 'logout';
      reason: 'signed-out' | 'session-lost';
      origin_tab: string | null;
      /** The session that ended (null: no token at all). */
      session_id: string | null;
    }
  | { kind: 'session' }
  | { kind: 'reload'; origin_tab: string | null };

type Sent = ChannelMessage & { from: string };

export type SessionChannel = {
  post(message: ChannelMessage): void;
  /** Messages from the other instances (never this one's own). */
  listen(listener: (message: ChannelMessage) => void): void;
  close(): void;
};

/** The session's BroadcastChannel, with this instance's own messages filtered out. */
export function createSessionChannel(deps: {
  channel: BroadcastChannelLike;
  /** This worker instance. */
  instance: string;
}): SessionChannel {
  return {
    post(message) {
      try {
        deps.channel.postMessage({ ...message, from: deps.instance } satisfies Sent);
      } catch {
        // A closed channel means this worker is closing; nobody is left to tell.
      }
    },
    listen(listener) {
      deps.channel.addEventListener('message', (event) => {
        const message = event.data as Sent | null;
        if (!message || message.from === deps.instance) return;
        listener(message);
      });
    },
    close: () => deps.channel.close(),
  };
}
