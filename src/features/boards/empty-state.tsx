import { ShellLink } from '../../layout/shell-link';
import { helpLink, type HelpTopic } from '../../lib/help-links';
import { routesFor } from '../../lib/routes';
import { sourceTitle } from '../../lib/sources';
import { useShell } from '../../shell-context';

/**
 * What an empty feed says (000 §2): why it is empty, a way to fill it ("Follow a source"), and
 * the help page for its topic. `family` names a family or sub-view nothing here provides
 * (chats, emails, links...); `source` is the one source of an /apps/{source} view.
 */
export function FeedEmptyState(props: {
  family: string | null;
  help: HelpTopic | null;
  sourceLabel?: string;
}) {
  const { product } = useShell();
  const r = routesFor(product);
  const help = helpLink(props.help, product);
  const { heading, text } = emptyText(props, product);
  return (
    <section className="empty-state" aria-labelledby="feed-empty-title">
      <h2 id="feed-empty-title">{heading}</h2>
      <p>{text}</p>
      <div className="empty-actions">
        <ShellLink to={r.connect.website} className="button primary">
          Follow a source
        </ShellLink>
        <ShellLink to={r.connect.rss} className="button secondary">
          Add an RSS feed
        </ShellLink>
        {props.sourceLabel ? (
          <ShellLink to={r.settings.feeds} className="button secondary">
            See its ingestion status
          </ShellLink>
        ) : null}
      </div>
      <p className="empty-help">
        <a href={help.href} target="_blank" rel="noopener noreferrer">
          {help.label}
        </a>
      </p>
    </section>
  );
}

function emptyText(
  props: { family: string | null; sourceLabel?: string },
  product: string,
): { heading: string; text: string } {
  if (props.sourceLabel) {
    return {
      heading: `No documents from ${props.sourceLabel} yet`,
      text: 'New documents show here as soon as the source is read. Its ingestion status says when it last ran and what went wrong, if anything.',
    };
  }
  if (props.family === 'links' || props.family === 'media') {
    return {
      heading: `No ${sourceTitle(props.family, product).toLowerCase()} in this feed`,
      text: 'Feeds show documents, filings and web clips; links and media are not listed on their own.',
    };
  }
  if (props.family) {
    const title = sourceTitle(props.family, product);
    return {
      heading: `No ${title.toLowerCase()} yet`,
      text: `${title} show here once an app of that kind is connected. Meanwhile, follow websites, RSS feeds and exchange filings.`,
    };
  }
  return {
    heading: 'No documents yet',
    text: 'Follow a website, an RSS feed or an exchange, and its documents arrive here as they are published.',
  };
}
