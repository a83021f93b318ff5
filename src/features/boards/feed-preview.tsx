import { useEffect, useState } from 'react';
import type { BoardDefinition } from '../../../contract/boards';
import { SEARCH_DEBOUNCE_MS } from '../../../contract/constants';
import type { ResultCard } from '../../../contract/documents';
import { formatCount, formatPublished } from '../../lib/format';
import { userMessage } from '../../lib/user-message';
import { useOp } from './use-op';

/** The preview asks again once the query has been still this long (the search debounce). */
export const PREVIEW_DEBOUNCE_MS = SEARCH_DEBOUNCE_MS;
/** Cards shown in a preview. */
const PREVIEW_CARDS = 10;

/** The definition once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}

const when = (unix: number) => formatPublished(unix, new Date());

export function PreviewCard(props: { card: ResultCard }) {
  const { card } = props;
  return (
    <li className="fb-preview-card">
      <p className="fb-preview-title">{card.title}</p>
      <p className="fb-preview-meta muted">
        {card.label}
        {card.company_name ? ` · ${card.company_name}` : ''} · {when(card.unix)}
      </p>
      {card.plain_text ? <p className="fb-preview-text">{card.plain_text}</p> : null}
    </li>
  );
}

/**
 * The documents a draft would hold now ('boards.preview'), asked again whenever the draft has
 * been still for a moment. Keywords the validator refuses are left out of the query by the
 * caller, so a half-typed keyword never blanks the preview.
 */
export function FeedPreview(props: { definition: BoardDefinition; title?: string }) {
  const definition = useDebounced(props.definition, PREVIEW_DEBOUNCE_MS);
  const preview = useOp('boards.preview', { definition });
  const results = preview.data?.results ?? null;
  // Busy from the first keystroke until the answer for it is shown.
  const settling = JSON.stringify(definition) !== JSON.stringify(props.definition);
  const busy = settling || preview.loading;

  return (
    <section
      className="builder-preview"
      aria-labelledby="feed-preview-title"
      aria-busy={busy || undefined}
    >
      <h3 id="feed-preview-title">{props.title ?? 'Preview'}</h3>
      {preview.error ? (
        <p className="form-error" role="alert">
          {userMessage(preview.error)}
        </p>
      ) : null}
      {results ? (
        <p className="muted" role="status" data-testid="preview-count">
          {results.count === 1
            ? '1 matching document'
            : `${formatCount(results.count)} matching documents`}
        </p>
      ) : (
        <p className="muted" role="status">
          {preview.loading ? 'Looking for matching documents…' : ''}
        </p>
      )}
      {results?.documents.length ? (
        <ul className="fb-preview-list" aria-label="Matching documents">
          {results.documents.slice(0, PREVIEW_CARDS).map((card) => (
            <PreviewCard key={card.doc_id} card={card} />
          ))}
        </ul>
      ) : null}
      {results && results.count === 0 ? (
        <p className="muted">No documents match yet. New ones that match arrive in the feed.</p>
      ) : null}
    </section>
  );
}
