import type { Citation } from '../../../contract/assistant';
import type { CitationLinks } from './citation-store';
import { citationDate, citationExcerpt, citationString, sourceLink } from './citations';

/**
 * The answer's sources (001 §2): each citation by number with what it quotes (about 5 words
 * before and 6 after each highlight). A source travels as `label:: url`: its label is a link
 * to the original only when the address is http or https, plain text otherwise. "View Source"
 * opens the cited passage in the app when the citation makes a preview link.
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
              {original.href ? (
                <a
                  href={original.href}
                  className="ask-source-title"
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                >
                  {original.label}
                </a>
              ) : (
                <span className="ask-source-title">{original.label}</span>
              )}
              <span className="card-meta">
                {' '}
                {c.source_label} · {citationDate(c.unix)}
              </span>
              {preview ? (
                <a
                  href={preview}
                  className="button secondary small ask-view-source"
                  aria-label={`View Source ${c.id}`}
                  onClick={(event) => {
                    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) {
                      return;
                    }
                    event.preventDefault();
                    links.open(c);
                  }}
                >
                  View Source
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
