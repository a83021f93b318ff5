import { useId, useState, type ReactNode } from 'react';
import type { FeedbackBody } from '../../../contract/assistant';
import { TOAST_TEXT } from '../../../contract/constants';
import { LIMITS } from '../../../contract/define';
import type { z } from 'zod';
import { Icon } from '../../lib/icons';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import { FEEDBACK_THANKS } from './assistant-texts';

type FeedbackValue = z.infer<typeof FeedbackBody>['feedback'];

/** The prompt the copy falls back to when the clipboard refuses (001 §8). */
export const COPY_PROMPT = 'Copy to clipboard: Ctrl+C, Enter';

/**
 * Copies the answer's markdown: "Copied to clipboard" (001 §8); where the clipboard is missing
 * or refuses (no permission, an insecure page), a prompt holding the text to copy by hand.
 */
export async function copyAnswer(text: string): Promise<void> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    showToast('success', TOAST_TEXT.copied);
  } catch {
    window.prompt(COPY_PROMPT, text);
  }
}

export function CopyButton(props: { text: () => string }) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label="Copy answer"
      title="Copy"
      onClick={() => void copyAnswer(props.text())}
    >
      <Icon name="copy" />
    </button>
  );
}

/**
 * Thumbs up or down, then a short form (001 §4 "Feedback"): the choice (CORRECT or INCORRECT)
 * and an optional message, sent with ask.feedback. "Thanks for your feedback!" on success, the
 * generic failure toast otherwise, including a submission without a choice.
 */
export function FeedbackControls(props: { messageId: string; given: FeedbackValue | null }) {
  const { client } = useShell();
  const [choice, setChoice] = useState<FeedbackValue | null>(null);
  const [given, setGiven] = useState<FeedbackValue | null>(props.given);
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const fieldId = useId();
  const shown = choice ?? given;

  const submit = async () => {
    if (!choice) {
      showToast('error', TOAST_TEXT.genericFailure);
      return;
    }
    setSending(true);
    try {
      const text = message.trim();
      await client.call('ask.feedback', {
        feedback: choice,
        message_id: props.messageId,
        ...(text ? { message: text } : {}),
      });
      setGiven(choice);
      setChoice(null);
      setMessage('');
      showToast('success', FEEDBACK_THANKS);
    } catch {
      showToast('error', TOAST_TEXT.genericFailure);
    } finally {
      setSending(false);
    }
  };

  const thumb = (value: FeedbackValue, label: string, icon: ReactNode) => (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      aria-pressed={shown === value}
      title={label}
      onClick={() => setChoice(choice === value ? null : value)}
    >
      {icon}
    </button>
  );

  return (
    <>
      {thumb('CORRECT', 'Good answer', <Icon name="thumbs-up" />)}
      {thumb('INCORRECT', 'Bad answer', <Icon name="thumbs-down" />)}
      {choice ? (
        <form
          className="feedback-form"
          aria-label="Feedback"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <p className="feedback-choice">
            {choice === 'CORRECT' ? 'This answer was correct.' : 'This answer was incorrect.'}
          </p>
          <label htmlFor={fieldId}>Tell us more (optional)</label>
          <textarea
            id={fieldId}
            rows={2}
            maxLength={LIMITS.text}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
          <div className="feedback-buttons">
            <button type="submit" className="button small" disabled={sending}>
              Submit
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => setChoice(null)}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
