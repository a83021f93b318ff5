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

/** Passages within the scope (and the given documents), best first. */
async function selectPassages(db: Db, q: PassageQuery, parts: EngineParts): Promise<PassageHit[]> {
  const limit = Math.max(0, Math.min(q.limit, 1000));
  if (limit === 0) return [];
  let found: Array<{ id: number; score: number }> = [];
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
    for (const { seq } of allowed) {
      found.push(
        ...(await parts.passages(db, q.expr, limit, { lo: seq * 1024, hi: seq * 1024 + 1023 })),
      );
    }
  } else {
    // The best passages overall, checked against the scope, more of them while too few pass.
    for (let k = limit * 4; ; k *= 8) {
      const ranked = await parts.passages(db, q.expr, k, null);
      const seqs = [...new Set(ranked.map((p) => seqOfPassage(p.id)))];
      const allowed = new Set(
        (await checkCandidates(db, seqs, q.scope, OPEN_FILTER)).map((r) => r.seq),
      );
      found = ranked.filter((p) => allowed.has(seqOfPassage(p.id)));
      if (found.length >= limit || ranked.length < k) break;
    }
  }
  found = found.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
  if (found.length === 0) return [];
  const spans = new Map(
    (
      await db
        .selectFrom('document_passages')
        .select(['id', 'document_id', 'span_start', 'span_end'])
        .where(
          'id',
          'in',
          found.map((p) => p.id),
        )
        .execute()
    ).map((r) => [Number(r.id), r]),
  );
  return found.flatMap((p) => {
    const span = spans.get(p.id);
    return span
      ? [
          {
            document_id: span.document_id,
            start: span.span_start,
            end: span.span_end,
            score: p.score,
          },
        ]
      : [];
  });
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
