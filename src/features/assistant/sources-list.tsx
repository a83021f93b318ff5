import type { ReactNode } from 'react';
import type { Citation } from '../../../contract/assistant';
import type { CitationLinks } from './citation-store';
import { citationDate, citationExcerpt, citationString, sourceLink } from './citations';

/**
 * The answer's sources (001 §2): each citation by number with what it quotes (about 5 words
 * before and 6 after each highlight). Every row reads the same way (issue 18): its title and
 * "View Source" open the cited sentence in the app's preview when the citation makes a preview
 * link, and "Open original ↗" opens the document's own address in a new tab when it has one. A
 * source travels as `label:: url`; its address counts only when it is http or https.
 */
export function SourcesList(props: { citations: readonly Citation[]; links: CitationLinks }) {
  const { links } = props;
  if (props.citations.length === 0) return null;
  return (
    <section className="ask-sources" aria-label="Sources">
      <h4>Sources</h4>
      <ol>
        {props.citations.map((c) => {
          const original = sourceLink(citationString(c));
          const preview = links.hrefOf(c);
          return (
            <li key={c.id} value={Number(c.id) || undefined}>
              {preview ? (
                <PreviewLink
                  href={preview}
                  onOpen={() => links.open(c)}
                  className="ask-source-title"
                >
                  {original.label}
                </PreviewLink>
              ) : (
                <span className="ask-source-title">{original.label}</span>
              )}
              <span className="card-meta">
                {' '}
                {c.source_label} · {citationDate(c.unix)}
              </span>
              {preview ? (
                <PreviewLink
                  href={preview}
                  onOpen={() => links.open(c)}
                  className="button secondary small ask-view-source"
                  aria-label={`View Source ${c.id}`}
                >
                  View Source
                </PreviewLink>
              ) : null}
              {original.href ? (
                <a
                  href={original.href}
                  className="button secondary small ask-open-original"
                  aria-label={`Open original ${c.id}`}
                  title={original.href}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                >
                  Open original ↗
                </a>
              ) : null}
              <blockquote className="ask-source-excerpt">
                {citationExcerpt(c).map((parts, i) => (
                  <span key={i}>
                    {parts.map((part, j) =>
                      part.marked ? <mark key={j}>{part.text}</mark> : part.text,
                    )}{' '}
                  </span>
                ))}
              </blockquote>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * A link to a citation's in-app preview: a plain click opens it where citations open (the
 * preview overlay beside the page, or the full-screen preview); a modified or middle click is
 * left to the browser, which opens the address in a new tab.
 */
function PreviewLink(props: {
  href: string;
  onOpen: () => void;
  className: string;
  'aria-label'?: string;
  children: ReactNode;
}) {
  return (
    <a
      href={props.href}
      className={props.className}
      aria-label={props['aria-label']}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        props.onOpen();
      }}
    >
      {props.children}
    </a>
  );
}
