import { memo, useCallback, useDeferredValue, useEffect, useState } from 'react';
import type { AskStep } from '../../../contract/assistant';
import type { BotView } from '../../state/assistant-chat';
import { SaveToNoteButton } from '../notebooks';
import { ERROR_BUBBLE, NOTICE_GENERATIVE, NOTICE_LOW, NO_SEARCH_RESULTS } from './assistant-texts';
import { AskSearchResults } from './ask-search-results';
import { createCitationStore } from './citation-store';
import { citationsOf } from './citations';
import { CopyButton, FeedbackControls } from './message-actions';
import { SourcesList } from './sources-list';
import { CitationContext, StreamingMarkdown } from './streaming-markdown';
import { useWaitingText } from './timed-text';
import { useCitationLinks } from './use-citation-links';

const FINISHED = new Set(['done', 'stopped', 'error']);

/** The assistant's avatar: a star that turns while it is answering. */
export function BotAvatar(props: { busy: boolean }) {
  return (
    <span className="bot-avatar" aria-hidden="true" data-busy={props.busy || undefined}>
      <span className="bot-star">✦</span>
    </span>
  );
}

function Steps(props: { steps: readonly AskStep[] }) {
  if (props.steps.length === 0) return null;
  return (
    <ol className="ask-steps" aria-label="Steps">
      {props.steps.map((step) => (
        <li key={step.id} data-loading={step.loading || undefined}>
          <span className="ask-step-icon" aria-hidden="true">
            {step.loading ? '◌' : '✓'}
          </span>
          {step.text}
          {step.loading ? <span className="visually-hidden"> (in progress)</span> : null}
        </li>
      ))}
    </ol>
  );
}

function WaitingText() {
  const text = useWaitingText(true);
  return (
    <p className="waiting-text" role="status">
      {text}
    </p>
  );
}

/** The answer quality notices (001 §4 "Answer quality notices"). */
function QualityNotice(props: { quality: string }) {
  if (props.quality === 'LOW') return <p className="ask-notice">{NOTICE_LOW}</p>;
  if (props.quality === 'GENERATIVE') return <p className="ask-notice">{NOTICE_GENERATIVE}</p>;
  return null;
}

/**
 * One answer: its steps, the waiting text until the first words, the streamed markdown with
 * citation markers, search results in search mode, the quality notices, the error bubble, the
 * sources, follow-up questions and the copy and feedback actions. Memoised: while another
 * message streams this one does not render.
 */
export const BotMessage = memo(function BotMessage(props: {
  message: BotView;
  onAsk: (question: string) => void;
  /** How many messages the chat holds ("Save to note" shows from 2, 001 §2). */
  messages?: number;
}) {
  const { message, onAsk } = props;
  const { phase } = message;
  // What DONE brings besides the text (sources, follow-ups, notices, search results, actions,
  // the markers' links) renders from deferred values: the final text commits first, then React
  // renders the rest in a transition that yields to the browser, so the end of a long answer
  // never makes one long task. Each changes a few times in an answer's life, never per chunk.
  const data = useDeferredValue(message.data);
  const latePhase = useDeferredValue(phase);
  const lateFeedback = useDeferredValue(message.feedback);
  const links = useCitationLinks(data);
  // One store for the message's life: markers attach to it; DONE's citations are written on the
  // markers whose link changes, after the final text is painted (a few hundred per task).
  const [citations] = useState(() => createCitationStore(links));
  useEffect(() => citations.set(links), [citations, links]);
  const text = message.text;
  const copyText = useCallback(() => text.text, [text]);
  const search = data?.answer_type === 'SEARCH';
  const followUps = latePhase === 'done' ? (data?.followup_questions ?? []) : [];

  return (
    <article className="chat-message bot" aria-label="Answer">
      <BotAvatar busy={!FINISHED.has(phase)} />
      <div className="chat-bubble">
        {message.pro ? (
          <span className="pro-badge" title="Pro answer">
            PRO
          </span>
        ) : null}
        <Steps steps={message.intermediateSteps} />
        {phase === 'loading' ? <WaitingText /> : null}
        <CitationContext.Provider value={citations}>
          {text.tail.trim() || text.blocks.length > 0 ? <StreamingMarkdown state={text} /> : null}
          {phase === 'citing' ? (
            <p className="muted" role="status">
              Adding citations…
            </p>
          ) : null}
          {phase === 'error' ? (
            <p className="error-bubble" role="alert">
              {ERROR_BUBBLE}
            </p>
          ) : null}
          {message.generatingStopped ? <p className="muted">Stopped generating.</p> : null}
          {/* What renders from the deferred values, in a box of its own: its late commit
              changes this box, never the answer's text or what holds it. */}
          <div className="answer-late">
            {/* "No search results found." once: not again under an answer that says it. */}
            {search &&
            data &&
            (data.retrieved_results.length > 0 || !text.text.includes(NO_SEARCH_RESULTS)) ? (
              <AskSearchResults results={data.retrieved_results} />
            ) : null}
            {latePhase === 'done' && data ? <QualityNotice quality={data.answer_quality} /> : null}
            {!search ? <SourcesList citations={citationsOf(data)} links={links} /> : null}
            {followUps.length > 0 ? (
              <div className="ask-followups" role="group" aria-label="Follow-up questions">
                {followUps.map((question) => (
                  <button
                    key={question}
                    type="button"
                    className="chip"
                    onClick={() => onAsk(question)}
                  >
                    {question}
                  </button>
                ))}
              </div>
            ) : null}
            {FINISHED.has(latePhase) && latePhase !== 'error' ? (
              <div className="ask-actions">
                <CopyButton text={copyText} />
                <SaveToNoteButton
                  messages={props.messages ?? 0}
                  answer={copyText}
                  citations={() =>
                    citationsOf(data).map((c) => ({
                      id: c.id,
                      label: c.title_label,
                      href: links.hrefOf(c),
                    }))
                  }
                />
                {data?.message_id ? (
                  <FeedbackControls messageId={data.message_id} given={lateFeedback} />
                ) : null}
              </div>
            ) : null}
          </div>
        </CitationContext.Provider>
      </div>
    </article>
  );
});
