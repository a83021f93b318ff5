import { memo, useEffect, useRef } from 'react';
import type { ChatUserMessage } from '../../../contract/assistant';
import type { ChatAttachment } from '../../../contract/assistant-attachments';
import type { ChatView } from '../../state/assistant-chat';
import type { PendingQuestion } from '../../state/assistant-state';
import { ERROR_BUBBLE } from './assistant-texts';
import { AttachmentList } from './attachments';
import { BotAvatar, BotMessage } from './bot-message';
import { useWaitingText } from './timed-text';

const UserMessage = memo(function UserMessage(props: {
  message: Pick<ChatUserMessage, 'prompt'> & { attachments?: ChatUserMessage['attachments'] };
}) {
  // The files attached for this question: shown live and when the chat is reopened from history.
  const attached = (props.message.attachments ?? []) as ChatAttachment[];
  return (
    <article className="chat-message user" aria-label="Question">
      <p className="chat-bubble">{props.message.prompt}</p>
      <AttachmentList attachments={attached} label="Attached files" />
    </article>
  );
});

/** A question the worker has not answered for yet: shown at once, waiting or failed. */
function PendingMessage(props: { pending: PendingQuestion }) {
  const waiting = useWaitingText(!props.pending.failed);
  return (
    <>
      <UserMessage message={props.pending} />
      <article className="chat-message bot" aria-label="Answer">
        <BotAvatar busy={!props.pending.failed} />
        <div className="chat-bubble">
          {props.pending.failed ? (
            <p className="error-bubble" role="alert">
              {ERROR_BUBBLE}
            </p>
          ) : (
            <p className="waiting-text" role="status">
              {waiting}
            </p>
          )}
        </div>
      </article>
    </>
  );
}

/**
 * The conversation (001 §2 "Message list"): questions and answers in order, kept scrolled to the
 * newest while the user has not scrolled up to read.
 */
export function MessageList(props: {
  chat: ChatView | null;
  pending: PendingQuestion | null;
  onAsk: (question: string) => void;
}) {
  const { chat, pending, onAsk } = props;
  const list = useRef<HTMLDivElement>(null);
  const anchor = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const messages = chat?.messages ?? [];

  // Pinned while the bottom anchor is in view (within 48 px): an observer, not a scroll handler
  // reading the list's geometry, which would force a layout on every scroll event while an
  // answer streams (the browser scrolls as the answer grows).
  useEffect(() => {
    const root = list.current;
    const bottom = anchor.current;
    if (!root || !bottom || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        pinned.current = entry.isIntersecting;
      },
      { root, rootMargin: '0px 0px 48px 0px' },
    );
    observer.observe(bottom);
    return () => observer.disconnect();
  }, []);

  // A new question scrolls to the bottom unless the user scrolled up to read. The answer's
  // growth is followed by the browser (scroll anchoring on the bottom anchor, assistant.css):
  // no layout read per streamed update. The scroll reads the list's height at the next frame,
  // where the browser lays the page out anyway, not in the task that rendered the question.
  const count = messages.length + (pending ? 1 : 0);
  useEffect(() => {
    const toBottom = () => {
      const element = list.current;
      if (element && pinned.current) element.scrollTop = element.scrollHeight;
    };
    if (typeof requestAnimationFrame !== 'function') return toBottom();
    const frame = requestAnimationFrame(toBottom);
    return () => cancelAnimationFrame(frame);
  }, [count]);

  return (
    <div ref={list} className="chat-messages" role="log" aria-label="Conversation">
      {messages.map((message) =>
        message.type === 'user' ? (
          <UserMessage key={message.id} message={message} />
        ) : (
          <BotMessage key={message.id} message={message} onAsk={onAsk} messages={messages.length} />
        ),
      )}
      {pending ? <PendingMessage pending={pending} /> : null}
      <div ref={anchor} className="chat-anchor" aria-hidden="true" />
    </div>
  );
}
