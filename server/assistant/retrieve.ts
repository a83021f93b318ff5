import { ASK_PASSAGES } from '../../contract/assistant';
import type { CategoryTab } from '../../contract/documents';
import type { Db } from '../db/schema';
import { isEmptyScope } from '../search/answer';
import type { SearchExpr } from '../search/engine';
import { engineFor } from '../search/engines';
import type { RetrievedPassage } from './answerer';
import type { AskTarget } from './ask-scope';
import { anyOf, contentWords, holds, questionTerms, wordSet } from './words';

/**
 * The assistant's retrieval: the passages of the scope holding any of the question's content
 * words (the engine ranks them), re-ranked so that a passage holding more of the question's
 * words comes before one repeating a single word, the best ASK_PASSAGES numbered 1..n for the
 * answerer, and the documents they come from (read with the visibility guard again).
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

/** Candidates the engine is asked for, of which the re-ranking keeps ASK_PASSAGES. */
const CANDIDATES = ASK_PASSAGES * 3;

export type Retrieval = {
  words: string[];
  expr: SearchExpr | null;
  passages: RetrievedPassage[];
  /** The documents of the passages, by id, in the order of their first passage. */
  documents: Map<string, AskDocument>;
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

export async function retrieve(
  db: Db,
  target: AskTarget,
  question: string,
  signal: AbortSignal,
): Promise<Retrieval> {
  const words = contentWords(question);
  const expr = anyOf(words);
  const none: Retrieval = { words, expr, passages: [], documents: new Map() };
  if (!expr || isEmptyScope(target.scope)) return none;
  const engine = engineFor(db);
  const terms = questionTerms(question);
  // How rare each word is in the index: "revenue" says more than "report", which every filing
  // holds. The engine's ranking alone lets many short passages repeating a common word crowd
  // out the few holding the rare ones, so the rarer half of the words is asked for too.
  const docs = await engine.termDocs(db, [...new Set(terms.flatMap((t) => [...t.forms]))]);
  const rarity = new Map(
    terms.map((t) => {
      const df = Math.max(0, ...[...t.forms].map((f) => docs.get(f) ?? 0));
      return [t, 1 / Math.log(2 + df)] as const;
    }),
  );
  const rarest = [...terms]
    .sort((a, b) => rarity.get(b)! - rarity.get(a)!)
    .slice(0, Math.min(3, Math.ceil(terms.length / 2)))
    .map((t) => t.word);
  const ask = (e: SearchExpr) =>
    engine.passages(db, {
      expr: e,
      scope: target.scope,
      documentIds: target.documentIds,
      limit: CANDIDATES,
    });
  // The engine's best for all the words, then for the rarer ones, the re-ranking below decides.
  const hits = await ask(expr);
  stopIfAborted(signal);
  if (rarest.length < words.length) {
    const seen = new Set(hits.map((h) => `${h.document_id}:${h.start}`));
    for (const h of await ask(anyOf(rarest)!)) {
      if (!seen.has(`${h.document_id}:${h.start}`)) hits.push(h);
    }
    stopIfAborted(signal);
  }
  const loaded = await loadDocuments(db, target.scope.viewerId, [
    ...new Set(hits.map((h) => h.document_id)),
  ]);
  stopIfAborted(signal);
  const ranked = hits
    .flatMap((hit, order) => {
      const doc = loaded.get(hit.document_id);
      if (!doc) return [];
      const text = doc.plain_text.slice(hit.start, hit.end);
      const inText = wordSet(text);
      const inTitle = wordSet(doc.title);
      // The question's words the passage holds, rarer ones weighing more; its title's count half.
      const held = terms.reduce(
        (n, t) => n + rarity.get(t)! * (holds(inText, t) ? 1 : holds(inTitle, t) ? 0.5 : 0),
        0,
      );
      return [{ hit, doc, text, held, order }];
    })
    .sort((a, b) => b.held - a.held || a.order - b.order)
    .slice(0, ASK_PASSAGES);
  const passages: RetrievedPassage[] = ranked.map((r, i) => ({
    n: i + 1,
    document_id: r.doc.id,
    title: r.doc.title,
    source_label: r.doc.source_label,
    unix: r.doc.unix,
    start: r.hit.start,
    end: r.hit.end,
    text: r.text,
    score: r.hit.score,
  }));
  const documents = new Map<string, AskDocument>();
  for (const p of passages) documents.set(p.document_id, loaded.get(p.document_id)!);
  return { words, expr, passages, documents };
}
