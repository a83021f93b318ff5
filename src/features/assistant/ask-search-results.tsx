import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { AskSearchResult } from '../../../contract/assistant';
import { overlayVisible, withoutOverlayParams, overlaySearch } from '../../lib/overlay';
import { useViewportWidth } from '../../layout/use-viewport-width';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { NO_SEARCH_RESULTS, instancesText } from './assistant-texts';
import { citationDate, viewerParams } from './citations';
import { highlightParts, instancesOf, stepInstance } from './search-instances';

/** A snippet: `<em>` marks rendered as marks, everything else as text. */
function Snippet(props: { html: string; current: boolean }) {
  return (
    <p className="ask-snippet" aria-current={props.current || undefined}>
      {highlightParts(props.html).map((part, i) =>
        part.em ? <em key={i}>{part.text}</em> : <span key={i}>{part.text}</span>,
      )}
    </p>
  );
}

/**
 * Search mode's answer (answer_type SEARCH, 001 §2): "N instances found", previous and next
 * stepping through every highlight (wrapping around at either end), and the results, each
 * opening its document with the current highlight marked.
 */
export function AskSearchResults(props: { results: readonly AskSearchResult[] }) {
  const { product } = useShell();
  const navigate = useNavigate();
  const beside = overlayVisible(useViewportWidth());
  const instances = instancesOf(props.results);
  const [current, setCurrent] = useState(0);
  const list = useRef<HTMLOListElement>(null);
  const at = instances[current] ?? null;

  useEffect(() => {
    list.current?.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  if (props.results.length === 0) return <p className="muted">{NO_SEARCH_RESULTS}</p>;

  const open = (result: AskSearchResult, highlight: number) => {
    const span = result.highlight_indexes[highlight] ?? result.highlight_indexes[0];
    const params: Record<string, string> = {
      ...(span ? { highlight: `${span.start}-${span.end}` } : {}),
      ...viewerParams(result.highlighted_coordinates[highlight] ?? null),
    };
    if (result.category_tab) params.category_tab = result.category_tab;
    if (result.access_key) params.access_key = result.access_key;
    if (beside) {
      const overlay = overlaySearch('preview', {
        source: result.source,
        category: result.category_tab ?? result.source,
        deeplink: result.document_id,
        ...params,
      });
      void navigate({
        to: '.',
        search: (prev: Record<string, unknown>) => ({ ...withoutOverlayParams(prev), ...overlay }),
      });
    } else {
      void navigate({
        to: routesFor(product).preview(result.source, result.document_id),
        search: params,
      });
    }
  };

  return (
    <section className="ask-search" aria-label="Search results">
      <div className="ask-search-bar">
        <span role="status">{instancesText(instances.length)}</span>
        {instances.length > 0 ? (
          <span className="ask-search-step">
            <button
              type="button"
              className="icon-button"
              aria-label="Previous instance"
              onClick={() => setCurrent((n) => stepInstance(n, -1, instances.length))}
            >
              ‹
            </button>
            <span aria-live="polite">
              {current + 1} of {instances.length}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label="Next instance"
              onClick={() => setCurrent((n) => stepInstance(n, 1, instances.length))}
            >
              ›
            </button>
          </span>
        ) : null}
      </div>
      <ol ref={list} className="ask-search-results">
        {props.results.map((result, r) => (
          <li key={`${result.source}/${result.document_id}`}>
            <button
              type="button"
              className="link-button ask-search-title"
              onClick={() => open(result, at?.result === r ? at.highlight : 0)}
            >
              {result.title_label || result.source_label}
            </button>
            <p className="card-meta">
              {result.source_label} · {citationDate(result.unix)}
            </p>
            {result.highlights.map((html, h) => (
              <Snippet key={h} html={html} current={at?.result === r && at.highlight === h} />
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
