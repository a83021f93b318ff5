import { isSafeImage, previewWords, snippet, type ResultCard } from '../../../contract/documents';

/**
 * The result card's rules (002 §3, §5, §9), pure so tests read them without a DOM.
 */

/** Pill tags shown on the card before the overflow popup (002 §9). */
export const PILLS_DESKTOP = 5;
export const PILLS_MOBILE = 1;

/** Lines of card text (002 §9): 3, or 1 on small screens, where cards are single-line. */
export const TEXT_LINES_DESKTOP = 3;
export const TEXT_LINES_MOBILE = 1;

export const textLines = (mobile: boolean) => (mobile ? TEXT_LINES_MOBILE : TEXT_LINES_DESKTOP);

/** News, blogs and websites read as RSS; everything else (filings) as a document. */
export const isRssCard = (card: Pick<ResultCard, 'category'>) => card.category === 'rss_news';

/**
 * The card's text: an RSS item's snippet (1000 characters plus "..."), any other document's
 * first 100 words (002 §9).
 */
export function cardText(card: Pick<ResultCard, 'category' | 'plain_text'>): string {
  const text = card.plain_text.trim();
  return isRssCard(card) ? snippet(text) : previewWords(text);
}

export type CardField = { label: string; value: string };

/**
 * The typed fields of a filing (002 §3): company, security code, category and secondary
 * category, each only when known. A news item's categories are its pills, not a field.
 */
export function cardFields(
  card: Pick<
    ResultCard,
    'category' | 'company_name' | 'security_code' | 'categories' | 'secondary_category'
  >,
): CardField[] {
  const filing = !isRssCard(card);
  const fields: Array<[string, string | null | undefined]> = [
    ['Company', card.company_name],
    ['Security code', card.security_code],
    ['Category', filing ? card.categories[0] : null],
    ['Secondary category', card.secondary_category],
  ];
  return fields
    .filter((f): f is [string, string] => typeof f[1] === 'string' && f[1].trim() !== '')
    .map(([label, value]) => ({ label, value: value.trim() }));
}

/** Pill tags: the first 5 (1 on a phone) on the card, the rest behind the overflow popup. */
export function splitPills(
  tags: readonly string[],
  mobile: boolean,
): { shown: string[]; overflow: string[] } {
  const unique = [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
  const limit = mobile ? PILLS_MOBILE : PILLS_DESKTOP;
  return { shown: unique.slice(0, limit), overflow: unique.slice(limit) };
}

/** The thumbnail to show: only an https image (002 §5), else none. */
export const cardThumbnail = (card: Pick<ResultCard, 'thumbnail_location'>) =>
  isSafeImage(card.thumbnail_location) ? card.thumbnail_location : null;

/** An "open original" address: only http and https, never javascript:, data: or the like. */
export function originalLink(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * The query that opens a card in the preview overlay (000 §2): overlay-type=preview with the
 * card's source, category, deeplink and category tab, plus the feed it was opened from.
 */
export function previewSearch(
  card: Pick<ResultCard, 'source' | 'category' | 'deeplink' | 'category_tab' | 'access_key'>,
  board: string,
): Record<string, string> {
  const params: Record<string, string> = {
    'overlay-type': 'preview',
    'overlay-source': card.source,
    'overlay-category': card.category,
    'overlay-deeplink': card.deeplink,
    'overlay-category_tab': card.category_tab,
    'overlay-access_key': card.access_key,
    'overlay-board_id': board,
  };
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
}

/**
 * Where a card opens on screens too small for the overlay (tablet and smaller): the full-screen
 * preview /preview/{source}/{deeplink} with the spec's query (002 §2).
 */
export function fullPreviewSearch(
  card: Pick<ResultCard, 'category_tab' | 'access_key'>,
  board: string,
): Record<string, string> {
  const params: Record<string, string> = {
    category_tab: card.category_tab,
    board_id: board,
    access_key: card.access_key,
  };
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
}
