import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { OpOutput } from '../../../contract/worker-api';
import { formatPublished } from '../../lib/format';
import { withoutOverlayParams } from '../../lib/overlay';
import { routesFor } from '../../lib/routes';
import { useShell } from '../../shell-context';
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
export type FeedRow = OpOutput<'feed.window'>['rows'][number];

/** Every card is this tall (px), gap included: the virtual list places rows without measuring. */
export const CARD_HEIGHT_DESKTOP = 200;
/** On a phone the text is one line and the pills one tag. */
export const CARD_HEIGHT_MOBILE = 156;

/**
 * A result card (002 §3): source and date, the title (which opens the preview overlay), a
 * filing's typed fields, the text clamped to 3 lines (1 on a phone), pill tags, an https
 * thumbnail that hides itself if it fails to load, and the read/unread action.
 */
export function ResultCardView(props: {
  card: FeedRow;
  board: string;
  mobile: boolean;
  /** The preview overlay cannot show here (tablet and smaller): open the full-screen one. */
  fullScreen: boolean;
  now: Date;
  /** Absent when the user may not mark documents read (doc_mark_as_read off). */
  onToggleRead?: (card: FeedRow) => void;
}) {
  const { card, mobile } = props;
  const { product } = useShell();
  const titleId = useId();
  const [thumbFailed, setThumbFailed] = useState(false);
  const thumbnail = cardThumbnail(card);
  const fields = cardFields(card);
  const published = new Date(card.unix * 1000);
  const title = card.title.trim() || card.label;

  return (
    <article
      className={card.read ? 'result-card' : 'result-card unread'}
      aria-labelledby={titleId}
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
          {props.fullScreen ? (
            <Link
              to={routesFor(product).preview(card.source, card.deeplink)}
              search={fullPreviewSearch(card, props.board)}
            >
              {title}
            </Link>
          ) : (
            <Link
              to="."
              search={(prev: Record<string, unknown>) => ({
                ...withoutOverlayParams(prev),
                ...previewSearch(card, props.board),
              })}
            >
              {title}
            </Link>
          )}
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
          {cardText(card)}
        </p>
        <PillTags tags={card.categories} mobile={mobile} />
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
