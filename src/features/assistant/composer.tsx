import { memo, useId, useState, type KeyboardEvent } from 'react';
import { MAX_PROMPT_CHARS, type AskMode } from '../../../contract/assistant';
import { attachmentsBlockSending } from '../../../contract/assistant-attachments';
import {
  PLACEHOLDER_EMPTY,
  PLACEHOLDER_FOLLOW_UP,
  PLACEHOLDER_HELP,
  PUBLIC_CORPUS_HINT,
  PUBLIC_CORPUS_LABEL,
  WEB_SEARCH_LOCKED,
  disclaimer,
} from './assistant-texts';
import { AttachButton, AttachDropArea, AttachmentList, type AttachControl } from './attachments';
import { useTypewriter } from './timed-text';

export type WebSearchControl = {
  on: boolean;
  /** Locked once the session has messages (001 §4.8). */
  locked: boolean;
  onToggle: (on: boolean) => void;
};

/**
 * The question box (001 §2): the placeholder types out "Ask me anything..." (a new chat) or
 * "Ask follow up..." and the @help hint in turn; Enter sends (Shift+Enter is a new line) unless
 * sending is disabled, an empty question is never sent; while an answer is produced the stop
 * control replaces send. Answer or search mode, Pro, the web-search switch (when the flag
 * allows it; locked once the session has messages) and the disclaimer line. With the flag
 * ask_{product}_upload (`attach`): the attach button, the drop area ("Drop files here") and
 * the attachments with their status; sending waits until every one is COMPLETED (001 §4.10).
 * Memoised: streamed updates do not render it, so typing stays quick while an answer streams.
 */
export const Composer = memo(function Composer(props: {
  product: string;
  hasMessages: boolean;
  answering: boolean;
  /** Sending is not possible now (no source selected, a question on its way). */
  disabled: boolean;
  webSearch: WebSearchControl | null;
  /** The chat's attachments; null when attaching is off (flag ask_{product}_upload). */
  attach?: AttachControl | null;
  onSend: (input: { prompt: string; mode: AskMode; pro: boolean }) => Promise<boolean>;
  onStop: () => void;
}) {
  const [prompt, setPrompt] = useState('');
  const [mode, setMode] = useState<AskMode>('answer');
  const [pro, setPro] = useState(false);
  const [lockShown, setLockShown] = useState(false);
  const inputId = useId();
  const placeholder = useTypewriter(
    [props.hasMessages ? PLACEHOLDER_FOLLOW_UP : PLACEHOLDER_EMPTY, PLACEHOLDER_HELP],
    prompt === '',
  );
  const question = prompt.trim();
  const attach = props.attach ?? null;
  const waitingForFiles = attach !== null && attachmentsBlockSending(attach.attachments);
  const canSend = !props.disabled && !props.answering && !waitingForFiles && question !== '';

  const send = async () => {
    if (!canSend) return;
    setPrompt('');
    const sent = await props.onSend({ prompt: question, mode, pro });
    // Not sent: the question comes back to be sent again.
    if (!sent) setPrompt((now) => (now === '' ? question : now));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  const web = props.webSearch;
  return (
    <AttachDropArea control={attach}>
      <div className="composer">
        {attach ? (
          <AttachmentList attachments={attach.attachments} onRemove={attach.onRemove} />
        ) : null}
        <form
          className="composer-box"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <label htmlFor={inputId} className="visually-hidden">
            Your question
          </label>
          <textarea
            id={inputId}
            rows={2}
            value={prompt}
            maxLength={MAX_PROMPT_CHARS}
            placeholder={placeholder}
            onChange={(event) => setPrompt(event.target.value)}
            onKeyDown={onKeyDown}
          />
          {props.answering ? (
            <button type="button" className="button small" onClick={props.onStop}>
              Stop generating
            </button>
          ) : (
            <button type="submit" className="button small" disabled={!canSend}>
              Send
            </button>
          )}
        </form>
        <div className="composer-options">
          {attach ? <AttachButton control={attach} /> : null}
          <label>
            <input
              type="checkbox"
              checked={mode === 'search'}
              onChange={(event) => setMode(event.target.checked ? 'search' : 'answer')}
            />{' '}
            Search mode
          </label>
          <label>
            <input
              type="checkbox"
              checked={pro}
              onChange={(event) => setPro(event.target.checked)}
            />{' '}
            Pro
          </label>
          {web ? (
            <label title={web.locked ? WEB_SEARCH_LOCKED : PUBLIC_CORPUS_HINT}>
              <input
                type="checkbox"
                role="switch"
                checked={web.on}
                aria-disabled={web.locked || undefined}
                onChange={(event) => {
                  if (web.locked) {
                    setLockShown(true);
                    return;
                  }
                  web.onToggle(event.target.checked);
                }}
              />{' '}
              {PUBLIC_CORPUS_LABEL}
            </label>
          ) : null}
        </div>
        {web?.locked && lockShown ? (
          <p className="composer-lock" role="status">
            {WEB_SEARCH_LOCKED}
          </p>
        ) : null}
        <p className="disclaimer">{disclaimer(props.product)}</p>
      </div>
    </AttachDropArea>
  );
});
