import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { driveSourceKey } from '../../contract/document-files';
import { insertDocuments } from '../content';
import type { Db } from '../db/schema';
import { iso } from '../time';
import type { ExtractResult } from '../extract';
import './tables';

/**
 * An uploaded file's text into the one write pipeline (content/store.ts insertDocuments, the
 * path feed documents take: indexed for search and the assistant in the same transaction),
 * under the user's own drive source, followed by them so it reaches their home feed (tab
 * Documents). Each extracted passage's place in the plain text and on its page is kept
 * (document_regions), and every search passage gets the page and box of the regions it holds
 * on its first page (document_passages.page, .box), for citations' document_highlight.
 */

/** The user's drive source key: `<product>drive_<user id>` (private to them; the UI's rule too). */
export const driveKeyOf = driveSourceKey;

const productLabel = (product: string) => product.charAt(0).toUpperCase() + product.slice(1);

/** The user's drive source, made (and followed) on first use. */
export async function driveSource(db: Db, product: string, userId: string, now: number) {
  const key = driveKeyOf(product, userId);
  const found = await db
    .selectFrom('sources')
    .select('id')
    .where('key', '=', key)
    .executeTakeFirst();
  if (found) return found.id;
  const id = randomUUID();
  const inserted = await db
    .insertInto('sources')
    .values({
      id,
      key,
      kind: 'builtin',
      label: `${productLabel(product)} Drive`,
      url: null,
      site_url: null,
      category: 'rss_news',
      category_tab: 'documents',
      market: null,
      grp: null,
      thumbnail: null,
      flag: 'my_data',
      public: 0,
      owner_user_id: userId,
      created_at: iso(now),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('id')
    .executeTakeFirst();
  const sourceId =
    inserted?.id ??
    (await db.selectFrom('sources').select('id').where('key', '=', key).executeTakeFirstOrThrow())
      .id;
  await db
    .insertInto('source_follows')
    .values({ user_id: userId, source_id: sourceId, priority: 0, created_at: iso(now) })
    .onConflict((oc) => oc.columns(['user_id', 'source_id']).doNothing())
    .execute();
  return sourceId;
}

/** As insertDocuments' prepare() leaves given text, so spans computed here stay true. */
const normalise = (text: string) =>
  text
    // NUL cannot be stored by PostgreSQL; lone surrogates are not text.
    .replaceAll(String.fromCharCode(0), '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();

type Ok = Extract<ExtractResult, { ok: true }>;

/** The plain text of the passages (blank lines between) and each passage's span in it. */
export function layOut(passages: Ok['passages']) {
  const parts: string[] = [];
  const regions: Array<{ start: number; end: number; p: Ok['passages'][number] }> = [];
  let at = 0;
  for (const p of passages) {
    const text = normalise(p.text);
    if (!text) continue;
    if (parts.length) at += 2;
    regions.push({ start: at, end: at + text.length, p });
    parts.push(text);
    at += text.length;
  }
  return { text: parts.join('\n\n'), regions };
}

const round = (n: number | undefined) => (n === undefined ? null : Math.round(n * 100) / 100);

/**
 * Stores the document in the caller's transaction; answers its id (the deeplink). Its dedupe
 * key is the storage key, so storing it again (a job run twice) adds nothing.
 */
export async function storeUploadedDocument(
  db: Db,
  opts: {
    product: string;
    userId: string;
    key: string;
    name: string;
    mimeType: string;
    result: Ok;
    now: number;
  },
): Promise<string> {
  const sourceId = await driveSource(db, opts.product, opts.userId, opts.now);
  const { text, regions } = layOut(opts.result.passages);
  const dedupeKey = `upload:${opts.key}`;
  await insertDocuments(
    db,
    sourceId,
    [
      {
        dedupe_key: dedupeKey,
        title: opts.result.title?.trim() || opts.name,
        url: null,
        unix: Math.floor(opts.now / 1000),
        html: null,
        text,
        category_tab: 'documents',
        mime_type: opts.mimeType,
      },
    ],
    { now: opts.now },
  );
  const doc = await db
    .selectFrom('documents')
    .select(['id', 'seq', 'plain_text'])
    .where('source_id', '=', sourceId)
    .where('dedupe_key', '=', dedupeKey)
    .executeTakeFirstOrThrow();
  const already = await db
    .selectFrom('document_regions')
    .select('ordinal')
    .where('document_id', '=', doc.id)
    .limit(1)
    .executeTakeFirst();
  if (already) return doc.id;
  // A text cut by the pipeline's bound keeps the regions that lie in it.
  const kept = regions.filter((r) => r.end <= doc.plain_text.length);
  for (let i = 0; i < kept.length; i += 200) {
    await db
      .insertInto('document_regions')
      .values(
        kept.slice(i, i + 200).map((r, j) => ({
          document_id: doc.id,
          ordinal: i + j,
          span_start: r.start,
          span_end: r.end,
          page: r.p.page ?? null,
          x0: round(r.p.box?.[0]),
          y0: round(r.p.box?.[1]),
          x1: round(r.p.box?.[2]),
          y1: round(r.p.box?.[3]),
          page_width: round(r.p.pageWidth),
          page_height: round(r.p.pageHeight),
          kind: r.p.kind ?? 'text',
        })),
      )
      .execute();
  }
  await placePassages(db, Number(doc.seq), kept);
  return doc.id;
}

/**
 * Each search passage of the document (document_passages, written by the index) gets the page
 * of the first region it overlaps and, where the regions on that page have boxes, their union
 * with the page's size: `box` = JSON [x0, y0, x1, y1, page_width, page_height].
 */
async function placePassages(
  db: Db,
  seq: number,
  regions: Array<{ start: number; end: number; p: Ok['passages'][number] }>,
) {
  if (!regions.some((r) => r.p.page !== undefined)) return;
  const passages = await db
    .selectFrom('document_passages')
    .select(['id', 'span_start', 'span_end'])
    .where('id', '>=', seq * 1024)
    .where('id', '<=', seq * 1024 + 1023)
    .execute();
  for (const passage of passages) {
    const inside = regions.filter(
      (r) => r.start < passage.span_end && r.end > passage.span_start && r.p.page !== undefined,
    );
    if (inside.length === 0) continue;
    const page = inside[0].p.page!;
    const boxes = inside.filter((r) => r.p.page === page && r.p.box);
    let box: string | null = null;
    if (boxes.length) {
      const b = boxes.map((r) => r.p.box!);
      const first = boxes[0].p;
      box = JSON.stringify([
        Math.min(...b.map((x) => x[0])),
        Math.min(...b.map((x) => x[1])),
        Math.max(...b.map((x) => x[2])),
        Math.max(...b.map((x) => x[3])),
        first.pageWidth ?? null,
        first.pageHeight ?? null,
      ]);
    }
    await sql`update document_passages set page = ${page}, box = ${box} where id = ${passage.id}`.execute(
      db,
    );
  }
}
