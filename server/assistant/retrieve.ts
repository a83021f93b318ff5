import { ASK_PASSAGES } from '../../contract/assistant';
import type { CategoryTab } from '../../contract/documents';
import type { Db } from '../db/schema';
import {
  documentsOfEntity,
  engineFor,
  entitiesOfDocuments,
  isEmptyScope,
  nameWords,
  type PassageHit,
  type SearchExpr,
} from '../search';
import type { RetrievedPassage } from './answerer';
import type { AskTarget } from './ask-scope';
import { judgeSentence } from './evidence';
import { holdsGroup, stemSequence } from './sentence-holds';
import { analyseQuestion, type QuestionAnalysis } from './question';
import { answerUnits, throughList } from './sentences';
import { anyOf, contentWords } from './words';

/**
 * The assistant's retrieval (issue 16). The question is read first (question.ts): the
 * organisations it names, what it asks, whether a figure. Then the engine is asked for passages
 * holding the question's words (and their synonyms):
 *
 * - a question naming organisations the index knows reads, for each, the passages of that
 *   filer's documents in the scope (a 10-K says "we": its words need not name it), and the
 *   passages naming it in documents of no one (news);
 * - a question naming an organisation the index does not know reads only passages naming it,
 *   of documents of no one; another filer's document never answers for it;
 * - a question naming none reads the scope's best passages for its words.
 *
 * The candidates are re-ranked by whether a sentence of theirs answers (evidence.ts), how much
 * of what is asked they hold, and the engine's own order; the engine's best few for each
 * search are always kept. How many are read adapts to the question: more for a comparison.
 * The documents they come from are read with the visibility guard again.
 */

/** What an answer needs of a document: its card's labels and keys, and its text. */
export type AskDocument = {
  id: string;
  title: string;
  url: string | null;
  unix: number;
  source_id: string;
  source_key: string;
  source_label: string;
  category_tab: CategoryTab;
  mime_type: string;
  company_name: string | null;
  plain_text: string;
};

/** Candidates the engine is asked for per search, of which the re-ranking keeps some. */
const CANDIDATES = ASK_PASSAGES * 3;
/** Candidates from the named organisation's own documents. */
const OWN_CANDIDATES = ASK_PASSAGES * 10;
/** The engine's best passages of each search that re-ranking never drops. */
const ENGINE_KEEPS = 3;
/** Passages read for a question naming several organisations: this many each, at most. */
const PER_ENTITY = 8;
const MAX_READ = ASK_PASSAGES * 2;

export type Retrieval = {
  words: string[];
  expr: SearchExpr | null;
  passages: RetrievedPassage[];
  /** The documents of the passages, by id, in the order of their first passage. */
  documents: Map<string, AskDocument>;
  analysis: QuestionAnalysis;
};

const stopIfAborted = (signal: AbortSignal) => {
  if (signal.aborted) throw signal.reason ?? new DOMException('aborted', 'AbortError');
};

/** Documents by id that the viewer may see (the engine guards too: a second lock). */
export async function loadDocuments(
  db: Db,
  viewerId: string,
  ids: readonly string[],
): Promise<Map<string, AskDocument>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('documents as d')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .select([
      'd.id',
      'd.title',
      'd.url',
      'd.unix',
      'd.source_id',
      'd.source_key',
      's.label as source_label',
      'd.category_tab',
      'd.mime_type',
      'd.company_name',
      'd.plain_text',
    ])
    .where('d.id', 'in', [...ids])
    .where((eb) =>
      eb.and([
        eb.or([eb('d.owner_user_id', 'is', null), eb('d.owner_user_id', '=', viewerId)]),
        eb.or([eb('s.owner_user_id', 'is', null), eb('s.owner_user_id', '=', viewerId)]),
      ]),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, { ...r, unix: Number(r.unix) }]));
  const out = new Map<string, AskDocument>();
  for (const id of ids) {
    const doc = byId.get(id);
    if (doc) out.set(id, doc);
  }
  return out;
}

type Candidate = { hit: PassageHit; order: number; search: number; primary: boolean };

const phrase = (text: string): SearchExpr | null => {
  const words = nameWords(text);
  return words.length ? { type: 'term', words } : null;
};

const both = (a: SearchExpr | null, b: SearchExpr | null): SearchExpr | null =>
  a && b ? { type: 'and', items: [a, b] } : (a ?? b);

export async function retrieve(
  db: Db,
  target: AskTarget,
  question: string,
  signal: AbortSignal,
): Promise<Retrieval> {
  const analysis = await analyseQuestion(db, question);
  stopIfAborted(signal);
  const words = analysis.searchWords.length ? analysis.searchWords : contentWords(question);
  const expr = anyOf(words);
  const none: Retrieval = { words, expr, passages: [], documents: new Map(), analysis };
  if (isEmptyScope(target.scope)) return none;
  const engine = engineFor(db);
  const candidates: Candidate[] = [];
  let searches = 0;
  const ask = async (
    e: SearchExpr | null,
    documentIds: string[] | null,
    primary: boolean,
    limit = CANDIDATES,
  ) => {
    if (!e) return;
    const search = searches++;
    const hits = await engine.passages(db, {
      expr: e,
      scope: target.scope,
      documentIds,
      limit,
    });
    hits.forEach((hit, order) => candidates.push({ hit, order, search, primary }));
    stopIfAborted(signal);
  };
  const inTarget = (ids: string[]) =>
    target.documentIds ? ids.filter((id) => target.documentIds!.includes(id)) : ids;

  if (analysis.entities.length > 0) {
    for (const entity of analysis.entities) {
      const own = inTarget(
        (await documentsOfEntity(db, entity.key, target.scope)).map((d) => d.document_id),
      );
      // Its own documents are few and long (a 10-K's sections): many of their passages are
      // read, so the one stating the figure is among them however often the words recur.
      if (own.length > 0) await ask(expr ?? phrase(entity.name), own, true, OWN_CANDIDATES);
      // Documents of no one naming it (news); another filer's are dropped below.
      await ask(both(phrase(entity.aliases[0]), expr), target.documentIds, false, ASK_PASSAGES);
    }
  } else if (analysis.unknown.length > 0) {
    for (const name of analysis.unknown) {
      await ask(both(phrase(name), expr), target.documentIds, true, ASK_PASSAGES);
    }
  } else {
    await ask(expr, target.documentIds, true);
  }
  if (candidates.length === 0) return none;

  // One candidate per text: the best place any search gave it. Copies of one text (the same
  // passage in syndicated copies, boilerplate, a document repeating its pages) count once, as
  // each search already gave them (engine: one per distinct text, by its hash): a primary
  // search's copy first, then the one of the user's own document, then the best placed.
  const unique = new Map<string, Candidate>();
  for (const c of candidates) {
    const key = c.hit.text_hash ?? `${c.hit.document_id}:${c.hit.start}`;
    const seen = unique.get(key);
    if (
      !seen ||
      (c.primary && !seen.primary) ||
      (c.primary === seen.primary &&
        (c.hit.own !== seen.hit.own ? c.hit.own : c.order < seen.order))
    ) {
      unique.set(key, c);
    }
  }
  const ids = [...new Set([...unique.values()].map((c) => c.hit.document_id))];
  const [loaded, filers] = await Promise.all([
    loadDocuments(db, target.scope.viewerId, ids),
    entitiesOfDocuments(db, ids),
  ]);
  stopIfAborted(signal);

  const scored = [...unique.values()].flatMap((c) => {
    const doc = loaded.get(c.hit.document_id);
    if (!doc) return [];
    const entity = filers.get(doc.id) ?? null;
    // A passage stopping inside a list reads on to the list's end (a list is one unit).
    const end = throughList(doc.plain_text, c.hit.start, c.hit.end);
    const text = doc.plain_text.slice(c.hit.start, end);
    let eligible = 0;
    let strong = 0;
    // A short sentence stating it all reads as the statement of the figure itself.
    let compact = 0;
    let about: string | null = null;
    let fits = false;
    for (const span of answerUnits(text)) {
      const judged = judgeSentence(analysis, text.slice(span.start, span.end), {
        entity,
        title: doc.title,
      });
      if (judged.entityOk) fits = true;
      if (judged.eligible) {
        eligible = 1;
        about ??= judged.entity;
      }
      if (judged.strong) {
        strong = 1;
        const words = (span.end - span.start) / 6;
        compact = Math.max(compact, 1 - Math.min(words, 60) / 60);
      }
    }
    // Another organisation's document never answers a question about this one.
    if ((analysis.entities.length > 0 || analysis.unknown.length > 0) && !fits) return [];
    const seq = stemSequence(text);
    const set = new Set([...seq, ...nameWords(text).map((w) => `=${w}`)]);
    const held = analysis.groups.filter((g) => holdsGroup(seq, set, g)).length;
    const coverage = analysis.groups.length ? held / analysis.groups.length : 0;
    const score = 2 * strong + eligible + coverage + 0.5 * compact + 0.5 / (1 + c.order);
    return [{ c, doc, entity, text, end, score, about, kept: c.primary && c.order < ENGINE_KEEPS }];
  });

  const entities = analysis.entities.length;
  // More for a comparison (each organisation's share) and for a question of two parts.
  const parts = analysis.parts?.length ?? 1;
  const budget = Math.min(MAX_READ, entities > 1 ? PER_ENTITY * entities : ASK_PASSAGES * parts);
  const ranked = scored.sort(
    (a, b) => b.score - a.score || a.c.order - b.c.order || a.c.search - b.c.search,
  );
  const chosen: typeof ranked = [];
  const take = (r: (typeof ranked)[number]) => {
    if (chosen.length < budget && !chosen.includes(r)) chosen.push(r);
  };
  // Each organisation of a comparison gets its share first; then the engine's best of each
  // search; then the rest by score.
  if (entities > 1) {
    for (const e of analysis.entities) {
      ranked
        .filter((r) => (r.entity ?? r.about) === e.key)
        .slice(0, Math.floor(budget / entities))
        .forEach(take);
    }
  }
  ranked.filter((r) => r.kept).forEach(take);
  ranked.forEach(take);
  chosen.sort((a, b) => b.score - a.score || a.c.order - b.c.order);

  const passages: RetrievedPassage[] = chosen.map((r, i) => ({
    n: i + 1,
    document_id: r.doc.id,
    title: r.doc.title,
    source_label: r.doc.source_label,
    unix: r.doc.unix,
    start: r.c.hit.start,
    end: r.end,
    text: r.text,
    score: r.c.hit.score,
    entity: r.entity,
  }));
  const documents = new Map<string, AskDocument>();
  for (const p of passages) documents.set(p.document_id, loaded.get(p.document_id)!);
  return { words, expr, passages, documents, analysis };
}
