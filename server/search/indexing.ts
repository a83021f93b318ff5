import { createHash } from 'node:crypto';
import { feedTabOf } from '../../contract/documents';
import type { Database, Db } from '../db/schema';
import type { IndexedDocument } from './engine';
import { entityOf, type EntityRow } from './entities';
import { splitPassages, type PassageSpan } from './passages';
import { searchWords } from './query';
import { addStemCounts } from './stems';
import {
  addScoped,
  bumpScopedTerms,
  bumpTerms,
  scopedKeyOf,
  type ScopedDeltas,
} from './vocabulary';
import './tables';

/**
 * What both engines write for a batch of documents, prepared once: the per-document row that
 * scoping, filters and sorts read, its tags, its passages, and the words it adds to the
 * vocabulary. Each engine then writes its own full-text rows (sqlite.ts, postgres.ts).
 */

export type MetaRow = Database['search_meta'];

export type PreparedDocument = {
  doc: IndexedDocument;
  meta: MetaRow;
  tags: string[];
  passages: PassageSpan[];
  /** Its filer (entities.ts), null for a document of no one. */
  entity: EntityRow | null;
};

/** A passage's id: its document's seq and its ordinal (passages.ts caps them at 1024). */
export const passageId = (seq: number, ordinal: number) => seq * 1024 + ordinal;

/**
 * What copies of one text share (syndicated news, boilerplate, a document repeating its pages):
 * a hash of the passage's text with each run of whitespace read as one space. Written with the
 * passage (document_passages.text_hash, migration 0030), so retrieval keeps one passage per
 * distinct text without reading any document's text (engine-base.ts).
 */
export const passageTextHash = (text: string) =>
  createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('base64url').slice(0, 22);

/** A short token made only of letters and digits (FTS5 facets; never a word anyone types). */
export const hashToken = (prefix: string, value: string) =>
  `${prefix}${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;

/** Vocabulary keys of the planner's counters (no word has a colon, or is empty). */
export const COUNTER_ALL = '';
export const counterOfSource = (sourceId: string) => `:src:${sourceId}`;
export const counterOfOwner = (userId: string) => `:own:${userId}`;
export const COUNTER_PUBLIC = ':pub';

/** Rows per multi-row INSERT: well under SQLite's bound on parameters. */
export const ROWS_PER_INSERT = 200;
/** Longer words are not counted in the vocabulary (nobody misspells them). */
const MAX_TERM = 64;

/** A document's words counted `delta` times in a scoped vocabulary (vocabulary.ts). */
const countScopedWords = (
  deltas: ScopedDeltas,
  key: string,
  doc: { title: string; plain_text: string },
  delta: number,
) => {
  for (const w of new Set(searchWords(`${doc.title}\n${doc.plain_text}`))) {
    if (w.length <= MAX_TERM) addScoped(deltas, key, w, delta);
  }
};

const tagsOf = (doc: IndexedDocument): string[] => {
  let categories: unknown = [];
  try {
    categories = JSON.parse(doc.categories);
  } catch {
    // a malformed list is no tags
  }
  const all = Array.isArray(categories) ? categories.filter((c) => typeof c === 'string') : [];
  if (doc.category) all.push(doc.category);
  return [...new Set(all.map((t: string) => t.trim()).filter(Boolean))];
};

export async function prepareBatch(db: Db, docs: IndexedDocument[]): Promise<PreparedDocument[]> {
  const sourceIds = [...new Set(docs.map((d) => d.source_id))];
  const sources = new Map(
    (
      await db
        .selectFrom('sources')
        .select(['id', 'owner_user_id', 'public', 'label'])
        .where('id', 'in', sourceIds)
        .execute()
    ).map((s) => [s.id, s]),
  );
  return docs.map((doc) => {
    const source = sources.get(doc.source_id);
    const entity = entityOf({
      company_name: doc.company_name,
      title: doc.title,
      source_label: source?.label ?? null,
      category_tab: doc.category_tab,
      security_id: doc.security_id,
    });
    return {
      doc,
      entity,
      tags: tagsOf(doc),
      passages: splitPassages(doc.plain_text),
      meta: {
        seq: doc.seq,
        document_id: doc.id,
        unix: doc.unix,
        source_id: doc.source_id,
        owner_user_id: doc.owner_user_id,
        source_owner: source?.owner_user_id ?? null,
        public: source && Number(source.public) === 1 && !source.owner_user_id ? 1 : 0,
        tab: feedTabOf(doc),
        market: doc.market,
        size: doc.plain_text.length,
        company: doc.company_name,
        category: doc.category,
        entity: entity?.key ?? null,
      },
    };
  });
}

/** Writes what both engines share: tags, passages' spans and the vocabulary's counts. */
export async function writeShared(db: Db, batch: PreparedDocument[]): Promise<void> {
  const tags = batch.flatMap((p) => p.tags.map((tag) => ({ seq: p.meta.seq, tag })));
  for (let i = 0; i < tags.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('search_tags')
      .values(tags.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
  const counts = new Map<string, number>();
  const add = (key: string, n = 1) => counts.set(key, (counts.get(key) ?? 0) + n);
  const scoped: ScopedDeltas = new Map();
  for (const { doc, meta } of batch) {
    // Only the public corpus feeds the vocabulary: spelling suggestions come from it, and must
    // never reveal a word that only someone's private documents hold. Any other document's
    // words go to its scoped vocabulary, which spelling reads for its own viewers only.
    const scopedKey = scopedKeyOf(meta);
    if (scopedKey) countScopedWords(scoped, scopedKey, doc, 1);
    if (meta.public && !meta.owner_user_id) {
      addStemCounts(counts, doc, 1);
      for (const w of new Set(searchWords(`${doc.title}\n${doc.plain_text}`))) {
        if (w.length <= MAX_TERM) add(w);
      }
    }
    add(COUNTER_ALL);
    add(counterOfSource(meta.source_id));
    if (meta.owner_user_id) add(counterOfOwner(meta.owner_user_id));
    if (meta.public) add(COUNTER_PUBLIC);
  }
  await bumpTerms(db, counts);
  await bumpScopedTerms(db, scoped);
}

/** The passages' rows (both engines), with whatever extra column an engine adds. */
export const passageRows = (batch: PreparedDocument[]) =>
  batch.flatMap(({ doc, passages }) =>
    passages.map((p) => {
      const text = doc.plain_text.slice(p.start, p.end);
      return {
        id: passageId(doc.seq, p.ordinal),
        document_id: doc.id,
        ordinal: p.ordinal,
        span_start: p.start,
        span_end: p.end,
        text_hash: passageTextHash(text),
        text,
      };
    }),
  );

/**
 * Takes documents' words out of the vocabulary, for the documents still indexed (search_meta
 * has them): call before their index rows go. Answers their seqs.
 */
export async function forgetWords(db: Db, ids: string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('documents as d')
    .innerJoin('search_meta as m', 'm.document_id', 'd.id')
    .select([
      'm.seq',
      'm.public',
      'm.source_id',
      'm.owner_user_id',
      'm.source_owner',
      'd.title',
      'd.plain_text',
    ])
    .where('d.id', 'in', ids)
    .execute();
  const counts = new Map<string, number>();
  const scoped: ScopedDeltas = new Map();
  for (const r of rows) {
    const scopedKey = scopedKeyOf(r);
    if (scopedKey) countScopedWords(scoped, scopedKey, r, -1);
    if (!Number(r.public) || r.owner_user_id) continue;
    addStemCounts(counts, r, -1);
    for (const w of new Set(searchWords(`${r.title}\n${r.plain_text}`))) {
      if (w.length <= MAX_TERM) counts.set(w, (counts.get(w) ?? 0) - 1);
    }
  }
  await bumpTerms(db, counts);
  await bumpScopedTerms(db, scoped);
  return rows.map((r) => Number(r.seq));
}
