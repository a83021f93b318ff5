import {
  isSafeImage,
  snippet,
  type CategoryTab,
  type DocumentDetail,
  type Market,
  type ResultCard,
} from '../../contract/documents';

/**
 * A document as the contract's result card (002 §3). Queries select CARD_COLUMNS from
 * `documents as d` joined with `sources as s` and hand the rows to toCard.
 */
export const CARD_COLUMNS = [
  'd.id',
  'd.seq',
  'd.source_id',
  'd.source_key',
  'd.title',
  'd.url',
  'd.unix',
  'd.plain_text',
  'd.category_tab',
  'd.market',
  'd.company_name',
  'd.security_code',
  'd.security_id',
  'd.category',
  'd.secondary_category',
  'd.categories',
  'd.thumbnail',
  'd.mime_type',
  's.label',
  's.category as source_category',
] as const;

export type CardRow = {
  id: string;
  seq: number;
  source_id: string;
  source_key: string;
  title: string;
  url: string | null;
  unix: number;
  plain_text: string;
  category_tab: CategoryTab;
  market: Market | null;
  company_name: string | null;
  security_code: string | null;
  security_id: string | null;
  category: string | null;
  secondary_category: string | null;
  categories: string;
  thumbnail: string | null;
  mime_type: string;
  label: string;
  source_category: string;
};

const categoriesOf = (row: CardRow): string[] => {
  try {
    const list = JSON.parse(row.categories) as unknown;
    if (Array.isArray(list) && list.length) return list.filter((c) => typeof c === 'string');
  } catch {
    // a filing's one category stands in
  }
  return row.category ? [row.category] : [];
};

export const toCard = (row: CardRow): ResultCard => ({
  doc_id: row.id,
  deeplink: row.id,
  source: row.source_key,
  source_id: row.source_id,
  label: row.label,
  category: row.source_category,
  category_tab: row.category_tab,
  market: row.market,
  unix: Number(row.unix),
  title: row.title,
  link: row.url,
  plain_text: snippet(row.plain_text),
  thumbnail_location: isSafeImage(row.thumbnail) ? row.thumbnail : null,
  mime_type: row.mime_type,
  company_name: row.company_name,
  security_code: row.security_code,
  security_id: row.security_id,
  secondary_category: row.secondary_category,
  categories: categoriesOf(row),
  // Access to a document goes through its source: the key a preview asks with.
  access_key: row.source_id,
  seq: Number(row.seq),
});

/** The whole document for a preview: the card, its sanitised HTML, all its text, read or not. */
export const toDetail = (
  row: CardRow & { html: string; full_text: string },
  read: boolean,
): DocumentDetail => ({
  ...toCard(row),
  content: row.html,
  body: row.full_text,
  read,
});
