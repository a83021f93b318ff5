import { Link } from '@tanstack/react-router';
import { useId, useState, type ReactNode } from 'react';
import type { OpOutput } from '../../../contract/worker-api';
import { formatPublished } from '../../lib/format';
import { withoutOverlayParams } from '../../lib/overlay';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
import { DocumentTagControls } from '../tags';
import {
  cardFields,
  cardText,
  cardThumbnail,
  fullPreviewSearch,
  previewSearch,
  textLines,
} from './card-rules';
import { PillTags } from './pill-tags';

/** One row of a feed window: a result card with its read state. */
export type BoardEntryRow = OpOutput<'feed.window'>['rows'][number];

/** Where a card's title leads: a route and its query (or a change to the current query). */
export type CardLink = {
  to: string;
  search: Record<string, string> | ((prev: Record<string, unknown>) => Record<string, unknown>);
};

/**
 * A card's estimated height (px, gap included) before it is shown: the list measures each card
 * it shows, and a list too long to measure (scaled) gives every card this height.
 */
export const CARD_HEIGHT_DESKTOP = 200;
/** On a phone the text is one line and the pills one tag. */
export const CARD_HEIGHT_MOBILE = 156;

/**
 * Where a feed card's title leads: the preview overlay over the feed, or the full-screen
 * preview where the overlay cannot show.
 */
export function cardLink(
  card: BoardEntryRow,
  board: string,
  fullScreen: boolean,
  product: string,
): CardLink {
  return {
    to: fullScreen ? routesFor(product).preview(card.source, card.deeplink) : '.',
    search: fullScreen
      ? fullPreviewSearch(card, board)
      : (prev) => ({ ...withoutOverlayParams(prev), ...previewSearch(card, board) }),
  };
}

/**
 * A result card (002 §3): source and date, the title (which opens the preview overlay), a
 * filing's typed fields, the text clamped to 3 lines (1 on a phone), pill tags, an https
 * thumbnail that hides itself if it fails to load, and the read/unread action.
 */
export function ResultCardView(props: {
  card: BoardEntryRow;
  board: string;
  mobile: boolean;
  /** The preview overlay cannot show here (tablet and smaller): open the full-screen one. */
  fullScreen: boolean;
  now: Date;
  /** Absent when the user may not mark documents read (doc_mark_as_read off). */
  onToggleRead?: (card: BoardEntryRow) => void;
  /** Where the title leads instead of the preview (search: the preview with the term). */
  open?: CardLink;
  /** Shown instead of the card's opening text (search: the highlighted snippets). */
  text?: ReactNode;
  /** The card whose document is shown beside the list (the full search page). */
  current?: boolean;
  /** The reading loop's selected card (j/k), marked also while its preview covers the list. */
  selected?: boolean;
}) {
  const { card, mobile } = props;
  const { product } = useShell();
  const titleId = useId();
  const [thumbFailed, setThumbFailed] = useState(false);
  const thumbnail = cardThumbnail(card);
  const fields = cardFields(card);
  const published = new Date(card.unix * 1000);
  const title = card.title.trim() || card.label;
  const link: CardLink = props.open ?? cardLink(card, props.board, props.fullScreen, product);

  return (
    <article
      className={`result-card${card.read ? '' : ' unread'}${props.current ? ' current' : ''}${
        props.selected ? ' selected' : ''
      }`}
      aria-labelledby={titleId}
      aria-current={props.current || undefined}
      data-selected={props.selected || undefined}
      data-deeplink={card.deeplink}
    >
      {thumbnail && !thumbFailed ? (
        <img
          className="card-thumb"
          src={thumbnail}
          alt=""
          loading="lazy"
          referrerPolicy="no-referrer"
          onError={() => setThumbFailed(true)}
        />
      ) : null}
      <div className="card-body">
        <p className="card-meta">
          {card.read ? null : <span className="unread-dot" aria-hidden="true" />}
          {card.read ? null : <span className="visually-hidden">Unread. </span>}
          <span className="card-source">{card.label}</span>
          <span aria-hidden="true"> · </span>
          <time dateTime={published.toISOString()} title={published.toLocaleString()}>
            {formatPublished(card.unix, props.now)}
          </time>
        </p>
        <h3 className="card-title" id={titleId}>
          <Link to={link.to} search={link.search}>
            {title}
          </Link>
        </h3>
        {fields.length > 0 ? (
          <dl className="card-fields">
            {fields.map((field) => (
              <div key={field.label}>
                <dt>{field.label}</dt>
                <dd>{field.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        <p className="card-text" data-lines={textLines(mobile)}>
          {props.text ?? cardText(card)}
        </p>
        <PillTags tags={card.categories} mobile={mobile} />
        <DocumentTagControls
          deeplink={card.deeplink}
          source={card.source}
          mobile={mobile}
          card={card}
        />
      </div>
      {props.onToggleRead ? (
        <button
          type="button"
          className="button secondary small card-read-toggle"
          onClick={() => props.onToggleRead?.(card)}
        >
          {card.read ? 'Mark as unread' : 'Mark as read'}
        </button>
      ) : null}
    </article>
  );
}
