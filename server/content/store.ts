import { createHash } from 'node:crypto';
import { feedTabOf, type CategoryTab, type Market } from '../../contract/documents';
import type { Database, Db } from '../db/schema';
import { engineFor } from '../search';
import { iso } from '../time';
import { FeedTouches, boardsReading, entryTargets, upsertEntries, type EntryRow } from '../boards';
import {
  absoluteUrl,
  htmlToText,
  reserveSeqs,
  sanitizeHtml,
  type IncomingDocument,
} from '../documents';

type DocRow = Database['documents'];

/**
 * The most of one document kept: 10 MiB of characters of HTML and of plain text, the bound on
 * the bytes a fetch reads (ingest/fetch.ts maxBytes; a body never holds more characters than
 * bytes), so nothing ingested is cut; the whole text is indexed (search/passages.ts: passages
 * to its end). A document handed over with more is cut at a line (else a space) before the
 * bound, and the cut logged.
 */
export const MAX_HTML = 10 * 1024 * 1024;
export const MAX_TEXT = 10 * 1024 * 1024;

/** `value` cut to `max` characters at a line break or space near the end, the cut logged. */
function bounded(value: string, max: number, what: string, item: IncomingDocument): string {
  if (value.length <= max) return value;
  const line = value.lastIndexOf('\n', max);
  const space = value.lastIndexOf(' ', max);
  const at = line > max * 0.9 ? line : space > max * 0.9 ? space : max;
  console.warn(
    `document ${JSON.stringify(item.title ?? '')} (${item.dedupe_key}): ${what} of ` +
      `${value.length} characters cut to ${at} (the bound is ${max})`,
  );
  return value.slice(0, at);
}
const MAX_FIELD = 500;
const MAX_KEY = 1000;
const TITLE_WORDS = 14;
/** Published times further ahead than this are not believed: such a document is dated now. */
const FUTURE_SLACK_S = 86_400;
/** Rows per INSERT: 23 columns each, well under SQLite's bound on parameters. */
const CHUNK = 200;

/** A url-safe id, the same for the same document of the same source (the deeplink). */
const documentId = (sourceId: string, dedupeKey: string) =>
  createHash('sha256').update(`${sourceId}\u0000${dedupeKey}`).digest('base64url').slice(0, 22);

const field = (value: string | null | undefined) => {
  const v = value?.replace(/\s+/g, ' ').trim();
  return v ? v.slice(0, MAX_FIELD) : null;
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('\n');

const publishedAt = (unix: number | null, nowS: number) => {
  if (unix === null || !Number.isFinite(unix) || unix < 0 || unix > nowS + FUTURE_SLACK_S) {
    return nowS;
  }
  return Math.floor(unix);
};

/** The row an incoming document becomes, before its id, seq and source are known. */
function prepare(
  item: IncomingDocument,
  source: { category_tab: CategoryTab; market: Market | null },
  nowS: number,
  baseUrl: string | null | undefined,
) {
  const html = item.html ? sanitizeHtml(bounded(item.html, MAX_HTML, 'html', item), baseUrl) : null;
  const given = item.text
    ?.replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .trim();
  const text = bounded(given || (html ? htmlToText(html) : ''), MAX_TEXT, 'text', item);
  const url = absoluteUrl(item.url, baseUrl, ['http:', 'https:']);
  const title =
    field(item.title) ??
    field(text.split(/\s+/).slice(0, TITLE_WORDS).join(' ')) ??
    field(url) ??
    'Untitled';
  const categories = [...new Set((item.categories ?? []).map(field).filter((c) => c !== null))];
  return {
    dedupe_key: item.dedupe_key,
    title,
    url,
    unix: publishedAt(item.unix, nowS),
    html: html ?? paragraphs(text),
    plain_text: text,
    category_tab: item.category_tab ?? source.category_tab,
    market: item.market !== undefined ? item.market : source.market,
    company_name: field(item.company_name),
    security_code: field(item.security_code),
    security_id: field(item.security_id),
    // A news item's first category stands for it where one category is asked (sorting).
    category: field(item.category) ?? categories[0] ?? null,
    secondary_category: field(item.secondary_category),
    categories: JSON.stringify(categories.slice(0, 20)),
    thumbnail: absoluteUrl(item.thumbnail, baseUrl, ['https:']),
    mime_type: field(item.mime_type) ?? 'text/html',
  };
}

/**
 * Stores a batch of a source's documents inside the caller's transaction: sanitises their HTML,
 * fills a missing title, date or text, skips duplicates (the database's UNIQUE (source_id,
 * dedupe_key) decides, so two processes cannot both insert one), numbers them in commit order,
 * adds them to the home feed of every follower and to every feed whose query matches, and
 * appends one 'feed' change per affected user per feed.
 */
export async function insertDocuments(
  db: Db,
  sourceId: string,
  items: IncomingDocument[],
  opts: { now: number; baseUrl?: string | null },
): Promise<{ inserted: number; duplicates: number }> {
  const source = await db
    .selectFrom('sources')
    .select(['id', 'key', 'category_tab', 'market', 'owner_user_id'])
    .where('id', '=', sourceId)
    .executeTakeFirst();
  if (!source) throw new Error(`insertDocuments: no source ${sourceId}`);
  const nowS = Math.floor(opts.now / 1000);
  const byKey = new Map<string, IncomingDocument>();
  for (const item of items) {
    // guid, else link (the reader's choice); with neither, the title and text decide.
    const key =
      item.dedupe_key?.trim() ||
      `sha256:${createHash('sha256')
        .update(`${item.title ?? ''}\u0000${item.text ?? item.html ?? ''}`)
        .digest('hex')}`;
    const kept = key.slice(0, MAX_KEY);
    if (!byKey.has(kept)) byKey.set(kept, { ...item, dedupe_key: kept });
  }
  const existing = new Set<string>();
  const keys = [...byKey.keys()];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await db
      .selectFrom('documents')
      .select('dedupe_key')
      .where('source_id', '=', sourceId)
      .where('dedupe_key', 'in', keys.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) existing.add(r.dedupe_key);
  }
  // Oldest first, so the sequence follows publication within a batch.
  const fresh = keys
    .filter((k) => !existing.has(k))
    .map((k) => prepare(byKey.get(k)!, source, nowS, opts.baseUrl))
    .sort((a, b) => a.unix - b.unix);
  if (fresh.length === 0) return { inserted: 0, duplicates: items.length };

  const base = await reserveSeqs(db, fresh.length);
  const createdAt = iso(opts.now);
  // Each field named, not `...doc`: V8 gave every row spread from its prepared document a
  // hidden class of its own (about 3 KB of old-generation garbage a document; issue 17).
  const rows: DocRow[] = fresh.map((doc, i) => ({
    dedupe_key: doc.dedupe_key,
    title: doc.title,
    url: doc.url,
    unix: doc.unix,
    html: doc.html,
    plain_text: doc.plain_text,
    category_tab: doc.category_tab,
    market: doc.market,
    company_name: doc.company_name,
    security_code: doc.security_code,
    security_id: doc.security_id,
    category: doc.category,
    secondary_category: doc.secondary_category,
    categories: doc.categories,
    thumbnail: doc.thumbnail,
    mime_type: doc.mime_type,
    id: documentId(sourceId, doc.dedupe_key),
    seq: base + i,
    source_id: sourceId,
    source_key: source.key,
    owner_user_id: source.owner_user_id,
    created_at: createdAt,
  }));
  const inserted: DocRow[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const ids = new Set(
      (
        await db
          .insertInto('documents')
          .values(chunk)
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .execute()
      ).map((r) => r.id),
    );
    inserted.push(...chunk.filter((r) => ids.has(r.id)));
  }
  // Searchable as soon as stored: the index is written in this same transaction.
  await engineFor(db).index(db, inserted);
  await fanOut(db, source.id, inserted, opts.now);
  return { inserted: inserted.length, duplicates: items.length - inserted.length };
}

/** New documents into the home feeds of their source's followers and the feeds they match. */
async function fanOut(db: Db, sourceId: string, docs: DocRow[], now: number): Promise<void> {
  if (docs.length === 0) return;
  const followers = (
    await db
      .selectFrom('source_follows')
      .select('user_id')
      .where('source_id', '=', sourceId)
      .execute()
  ).map((r) => r.user_id);
  if (followers.length === 0) return;
  const boards = await boardsReading(db, followers, sourceId, now);
  const touches = new FeedTouches();
  const entries: EntryRow[] = [];
  for (const doc of docs) {
    const card = { ...doc, categories: JSON.parse(doc.categories) as string[] };
    const tab = feedTabOf(doc);
    for (const { userId, feedId } of entryTargets(card, followers, boards)) {
      entries.push({
        feed_id: feedId,
        document_id: doc.id,
        unix: doc.unix,
        tab,
        company: doc.company_name,
        category: doc.category,
        entry_seq: doc.seq,
        removed: 0,
      });
      touches.add(userId, feedId, doc.seq);
    }
  }
  await upsertEntries(db, entries);
  await touches.notify(db, now);
}
