import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { SessionSummary } from '../../../../contract/assistant';
import { SEARCH_DEBOUNCE_MS } from '../../../../contract/constants';
import { stem, stemsOf, wordSpans } from '../../../../contract/words';
import { useShell } from '../../../shell-context';
import { RetryAlert } from '../../../shell/retry-alert';
import { SessionBadge } from './history-list';

/** Skeleton rows while a history search loads (001 §9). */
export const HISTORY_SKELETON_ROWS = 5;
/** The longest query ask.sessions takes (contract/assistant.ts). */
const MAX_QUERY = 200;

type Results =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; query: string; sessions: SessionSummary[] }
  | { status: 'failed'; query: string; error: unknown };

/**
 * The history search (001 §2): a modal titled Search whose input searches the sessions
 * (ask.sessions with q) 500 ms after the last keystroke, Enter at once. Skeleton rows show from
 * the first keystroke until the answer, since what was listed no longer answers what is typed.
 * Each match shows the sentence that matched; choosing one opens it. Escape, the close button
 * and a click on the backdrop close it.
 */
export function HistorySearchModal(props: {
  onClose: () => void;
  onSelect: (sessionId: string) => void;
}) {
  const { client } = useShell();
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Only the latest search may show its answer: an earlier, slower one is dropped.
  const latest = useRef(0);
  const [text, setText] = useState('');
  const [results, setResults] = useState<Results>({ status: 'idle' });

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    input.current?.focus();
    return () => clearTimeout(timer.current);
  }, []);

  const search = (query: string) => {
    clearTimeout(timer.current);
    const ticket = ++latest.current;
    if (!query) {
      setResults({ status: 'idle' });
      return;
    }
    setResults({ status: 'loading' });
    client.call('ask.sessions', { q: query }).then(
      (answer) => {
        if (ticket === latest.current)
          setResults({ status: 'done', query, sessions: answer.sessions });
      },
      (error: unknown) => {
        if (ticket === latest.current) setResults({ status: 'failed', query, error });
      },
    );
  };

  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    const query = next.trim();
    if (!query) {
      search('');
      return;
    }
    latest.current += 1;
    setResults({ status: 'loading' });
    timer.current = setTimeout(() => search(query), SEARCH_DEBOUNCE_MS);
  };

  const choose = (sessionId: string) => {
    props.onSelect(sessionId);
    props.onClose();
  };

  // The browser asks to close on Escape ('cancel'); the parent decides, by unmounting us.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onClose();
    }
  };

  return (
    <dialog
      ref={dialog}
      className="modal history-search"
      aria-modal="true"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
      onClose={props.onClose}
      // A click outside a modal dialog lands on the dialog element itself (its backdrop).
      onClick={(event) => {
        if (event.target === event.currentTarget) props.onClose();
      }}
    >
      <div className="history-search-head">
        <h2 id={titleId}>Search</h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Close search"
          onClick={props.onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          search(text.trim());
        }}
      >
        <input
          ref={input}
          type="search"
          className="history-search-input"
          aria-label="Search conversations"
          placeholder="Search conversations"
          autoComplete="off"
          maxLength={MAX_QUERY}
          value={text}
          onChange={(event) => change(event.currentTarget.value)}
        />
      </form>
      <SearchResults results={results} onChoose={choose} onRetry={() => search(text.trim())} />
    </dialog>
  );
}

function SearchResults(props: {
  results: Results;
  onChoose: (sessionId: string) => void;
  onRetry: () => void;
}) {
  const { results } = props;
  if (results.status === 'idle') return null;
  if (results.status === 'loading') {
    return (
      <ul className="history-search-results" aria-label="Loading results" aria-busy="true">
        {Array.from({ length: HISTORY_SKELETON_ROWS }, (_, i) => (
          <li key={i} className="history-search-skeleton">
            <span className="skeleton-line wide" />
            <span className="skeleton-line" />
          </li>
        ))}
      </ul>
    );
  }
  if (results.status === 'failed')
    return <RetryAlert error={results.error} onRetry={props.onRetry} />;
  if (results.sessions.length === 0) {
    return (
      <p className="history-search-empty" role="status">
        No result found.
      </p>
    );
  }
  return (
    <ul className="history-search-results" aria-label="Results">
      {results.sessions.map((session) => (
        <li key={session.id}>
          <button
            type="button"
            className="history-search-result"
            onClick={() => props.onChoose(session.id)}
          >
            <span className="history-search-title">
              <span className="history-row-title">{session.title}</span>
              <SessionBadge session={session} />
            </span>
            {session.matched_sentence ? (
              <span className="history-search-sentence">
                {markWords(session.matched_sentence, results.query)}
              </span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The sentence with the words of the query marked, as React text (never HTML: the sentence is
 * the user's and the answers' text). A word matches as the server's search matched it
 * (contract/words.ts): in any case, accents folded, by stem ("employ" marks "employed").
 */
export function markWords(sentence: string, query: string): ReactNode[] {
  const stems = new Set(stemsOf(query));
  const parts: ReactNode[] = [];
  let at = 0;
  for (const w of wordSpans(sentence)) {
    if (w.start < at || !stems.has(stem(w.word))) continue;
    if (w.start > at) parts.push(sentence.slice(at, w.start));
    parts.push(<mark key={w.start}>{sentence.slice(w.start, w.end)}</mark>);
    at = w.end;
  }
  if (at < sentence.length) parts.push(sentence.slice(at));
  return parts;
}
