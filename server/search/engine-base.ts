import type { Db } from '../db/schema';
import {
  OPEN_FILTER,
  type PassageHit,
  type PassageQuery,
  type SearchEngine,
  type SearchExpr,
  type SearchScope,
} from './engine';
import { writeEntities } from './entities';
import { facetOf } from './facet-counts';
import { forgetWords, prepareBatch, writeShared, type PreparedDocument } from './indexing';
import type { FusedOf, Matcher } from './matcher';
import { plannedSearch } from './planner';
import { normalizeExpr } from './query';
import { checkCandidates } from './scope-sql';
import { stemDocs } from './stems';
import { similarTerms } from './vocabulary';

/**
 * What differs between the engines (sqlite.ts, postgres.ts): how a batch's full-text rows are
 * written and removed, and how the index answers an expression. Everything else (the planner,
 * scoping, facets, passages' selection, the vocabulary) is shared, so both behave alike.
 */
export type EngineParts = {
  name: SearchEngine['name'];
  /** Writes search_meta, passages and the full-text rows of a prepared batch. */
  write(db: Db, batch: PreparedDocument[]): Promise<void>;
  /** Removes the full-text rows of documents (search_meta's rows go after, shared). */
  remove(db: Db, seqs: number[]): Promise<void>;
  matcher(db: Db, expr: SearchExpr | null, scope: SearchScope): Matcher;
  /** Plans in one statement each, where the engine's own planner does better (matcher.ts). */
  fused?: FusedOf;
  /** Passages matching `expr`, best first, at most `limit`, ids within [lo, hi] when given. */
  passages(
    db: Db,
    expr: SearchExpr,
    limit: number,
    ids: { lo: number; hi: number } | null,
  ): Promise<Array<{ id: number; score: number }>>;
};

const seqOfPassage = (id: number) => Math.floor(id / 1024);

/** A document's passages all: its id range (indexing.ts passageId). */
const PER_DOCUMENT = 1024;
/** Most ranked passages one search reads while copies of one text crowd the others out. */
const MAX_DISTINCT_READ = 4096;
/** Ids per lookup of passages' rows. */
const LOOKUP_CHUNK = 500;

type Ranked = { id: number; score: number };
type Placed = PassageHit & { id: number };

/**
 * The passages' spans, text hashes and whether the viewer owns their documents, by id (primary
 * key lookups, only of passages already ranked; cached across a search's rounds).
 */
async function placeAll(
  db: Db,
  ids: number[],
  viewerId: string,
  into: Map<number, Placed>,
): Promise<void> {
  const missing = [...new Set(ids.filter((id) => !into.has(id)))];
  for (let i = 0; i < missing.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .selectFrom('document_passages as p')
      .innerJoin('search_meta as m', 'm.document_id', 'p.document_id')
      .select([
        'p.id',
        'p.document_id',
        'p.span_start',
        'p.span_end',
        'p.text_hash',
        'm.owner_user_id',
        'm.source_owner',
      ])
      .where('p.id', 'in', missing.slice(i, i + LOOKUP_CHUNK))
      .execute();
    for (const r of rows) {
      const id = Number(r.id);
      into.set(id, {
        id,
        document_id: r.document_id,
        start: r.span_start,
        end: r.span_end,
        score: 0,
        text_hash: r.text_hash ?? null,
        own: r.owner_user_id === viewerId || r.source_owner === viewerId,
      });
    }
  }
}

/**
 * One passage per distinct text (document_passages.text_hash), best first, at most `limit`:
 * copies of one text (syndicated news, boilerplate, a document repeating its pages) would
 * otherwise fill the answer with one passage. A text stands where its best copy ranks, by the
 * copy in the viewer's own document if there is one, else by that best copy.
 */
function distinctPassages(
  ranked: Ranked[],
  placed: Map<number, Placed>,
  limit: number,
): PassageHit[] {
  const out: PassageHit[] = [];
  const at = new Map<string, number>();
  for (const p of ranked) {
    const place = placed.get(p.id);
    if (!place) continue;
    const { id: _id, ...rest } = place;
    const hit: PassageHit = { ...rest, score: p.score };
    const key = place.text_hash ?? `#${p.id}`;
    const i = at.get(key);
    if (i === undefined) {
      at.set(key, out.length);
      out.push(hit);
    } else if (hit.own && !out[i].own) {
      out[i] = { ...hit, score: out[i].score };
    }
  }
  return out.slice(0, limit);
}

const byRank = (a: Ranked, b: Ranked) => b.score - a.score || a.id - b.id;

/** Passages within the scope (and the given documents), best first, one per distinct text. */
async function selectPassages(db: Db, q: PassageQuery, parts: EngineParts): Promise<PassageHit[]> {
  const limit = Math.max(0, Math.min(q.limit, 1000));
  if (limit === 0) return [];
  const placed = new Map<number, Placed>();
  const viewer = q.scope.viewerId;
  if (q.documentIds !== null) {
    const docs = q.documentIds.length
      ? await db
          .selectFrom('search_meta')
          .select('seq')
          .where('document_id', 'in', q.documentIds)
          .execute()
      : [];
    const allowed = await checkCandidates(
      db,
      docs.map((d) => Number(d.seq)),
      q.scope,
      OPEN_FILTER,
    );
    const range = (seq: number) => ({ lo: seq * 1024, hi: seq * 1024 + 1023 });
    const bySeq = new Map<number, Ranked[]>();
    for (const { seq } of allowed) {
      bySeq.set(seq, await parts.passages(db, q.expr, limit, range(seq)));
    }
    const all = () => [...bySeq.values()].flat().sort(byRank);
    await placeAll(
      db,
      all().map((p) => p.id),
      viewer,
      placed,
    );
    // Copies crowd the distinct texts out: read the whole of each document that had more.
    if (distinctPassages(all(), placed, limit).length < limit && limit < PER_DOCUMENT) {
      for (const [seq, found] of bySeq) {
        if (found.length < limit) continue;
        bySeq.set(seq, await parts.passages(db, q.expr, PER_DOCUMENT, range(seq)));
      }
      await placeAll(
        db,
        all().map((p) => p.id),
        viewer,
        placed,
      );
    }
    return distinctPassages(all(), placed, limit);
  }
  // The best passages overall, checked against the scope, more of them while too few pass or
  // while copies of one text leave too few distinct ones (up to MAX_DISTINCT_READ for those).
  for (let k = limit * 4; ;) {
    const ranked = await parts.passages(db, q.expr, k, null);
    const seqs = [...new Set(ranked.map((p) => seqOfPassage(p.id)))];
    const allowed = new Set(
      (await checkCandidates(db, seqs, q.scope, OPEN_FILTER)).map((r) => r.seq),
    );
    const found = ranked.filter((p) => allowed.has(seqOfPassage(p.id))).sort(byRank);
    await placeAll(
      db,
      found.map((p) => p.id),
      viewer,
      placed,
    );
    const hits = distinctPassages(found, placed, limit);
    if (hits.length >= limit || ranked.length < k) return hits;
    if (found.length >= limit && k >= MAX_DISTINCT_READ) return hits;
    k = found.length < limit ? k * 8 : Math.min(k * 8, MAX_DISTINCT_READ);
  }
}

export function createEngine(parts: EngineParts): SearchEngine {
  return {
    name: parts.name,
    async index(db, docs) {
      if (docs.length === 0) return;
      const batch = await prepareBatch(db, docs);
      await parts.write(db, batch);
      await writeShared(db, batch);
      await writeEntities(
        db,
        batch.flatMap((p) => (p.entity ? [p.entity] : [])),
      );
    },
    async unindex(db, docs) {
      const ids = docs.map((d) => d.id);
      const seqs = await forgetWords(db, ids);
      if (seqs.length === 0) return;
      await parts.remove(db, seqs);
      for (const seq of seqs) {
        await db
          .deleteFrom('document_passages')
          .where('id', '>=', seq * 1024)
          .where('id', '<=', seq * 1024 + 1023)
          .execute();
      }
      // Its tags go by foreign key; its counters by trigger.
      await db.deleteFrom('search_meta').where('seq', 'in', seqs).execute();
    },
    // Every expression is normalized once, here: both engines run the same one.
    search: (db, query) =>
      plannedSearch(db, { ...query, expr: normalizeExpr(query.expr) }, parts.matcher, parts.fused),
    async passages(db, query) {
      const expr = normalizeExpr(query.expr);
      return expr ? selectPassages(db, { ...query, expr }, parts) : [];
    },
    facet: (db, query, facet, limit) =>
      facetOf(
        db,
        { ...query, expr: normalizeExpr(query.expr) },
        facet,
        limit,
        parts.matcher,
        parts.fused,
      ),
    // By stem (stems.ts): what a query word matches, so what the planner and retrieval count.
    termDocs: stemDocs,
    similarTerms,
  };
}
