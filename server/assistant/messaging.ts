import { universeId, type MessagingAnswer, type Suggestion } from '../../contract/assistant';
import type { Db } from '../db/schema';
import { visibleDocuments } from '../documents';
import { ApiError } from '../errors';
import { OPEN_FILTER, engineFor, searchScope, type SearchScope } from '../search';
import type { Viewer } from './ask-scope';
import { repeatedTerm, shortTitle } from './followups';

/**
 * Suggested questions (001 §7 "messaging"), drawn from the user's own documents: the newest
 * of their data (all), of a feed, and one document. Each names what a document names (a
 * company, a filing's category, a news topic, a title or a term the text repeats), so the
 * assistant can answer it from those documents. Nothing to draw from: an empty list.
 */

const NEWEST = 40;
const ALL = 4;
const FEED = 2;
const DOCUMENT = 3;

type Facts = {
  id: string;
  title: string;
  company_name: string | null;
  category: string | null;
  categories: string;
  category_tab: string;
  plain_text: string;
};

const FACT_COLUMNS = [
  'd.id',
  'd.title',
  'd.company_name',
  'd.category',
  'd.categories',
  'd.category_tab',
  'd.plain_text',
] as const;

const topicsOf = (d: Facts): string[] => {
  try {
    const list = JSON.parse(d.categories) as unknown;
    if (Array.isArray(list)) return list.filter((c): c is string => typeof c === 'string');
  } catch {
    // a filing's one category stands in
  }
  return d.category ? [d.category] : [];
};

const isFiling = (d: Facts) => d.category_tab === 'exchanges';

/** The questions one document suggests, most specific first. */
function questionsOf(d: Facts): Suggestion[] {
  const out: Suggestion[] = [];
  if (d.company_name && isFiling(d) && d.category) {
    out.push({
      question: `What does the latest ${d.category} filing of ${d.company_name} say?`,
      icon: 'chart',
    });
  } else if (d.company_name) {
    out.push({ question: `What did ${d.company_name} report recently?`, icon: 'chart' });
  }
  const topic = topicsOf(d).find((t) => t !== d.company_name);
  if (topic && !isFiling(d)) {
    out.push({ question: `What is the latest on ${topic.toLowerCase()}?`, icon: 'news' });
  }
  out.push({ question: `What are the key points of “${shortTitle(d.title)}”?`, icon: 'doc' });
  return out;
}

/** Up to `n` questions, one kind (icon) after another, no question or company twice. */
function pick(docs: readonly Facts[], n: number): Suggestion[] {
  const byIcon = new Map<string, Suggestion[]>();
  for (const d of docs) {
    for (const s of questionsOf(d)) byIcon.set(s.icon, [...(byIcon.get(s.icon) ?? []), s]);
  }
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const queues = ['chart', 'news', 'doc'].map((icon) => byIcon.get(icon) ?? []);
  while (out.length < n && queues.some((q) => q.length)) {
    for (const q of queues) {
      let s = q.shift();
      while (s && seen.has(s.question)) s = q.shift();
      if (s && out.length < n) {
        seen.add(s.question);
        out.push(s);
      }
    }
  }
  return out;
}

/** The newest documents of a scope (the engine walks it in time order, guarded). */
async function newestIn(db: Db, scope: SearchScope): Promise<Facts[]> {
  const { hits } = await engineFor(db).search(db, {
    ...OPEN_FILTER,
    expr: null,
    scope,
    sort: 'latest',
    offset: 0,
    limit: NEWEST,
    tabCounts: false,
  });
  if (hits.length === 0) return [];
  const rows = await visibleDocuments(db, scope.viewerId)
    .select([...FACT_COLUMNS])
    .where(
      'd.id',
      'in',
      hits.map((h) => h.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r as Facts]));
  return hits.map((h) => byId.get(h.id)).filter((r): r is Facts => r !== undefined);
}

/** A document's own questions: a term its text repeats, its company, its main points. */
function documentQuestions(d: Facts): Suggestion[] {
  const out: Suggestion[] = [];
  const term = repeatedTerm([d.plain_text], []);
  if (term) out.push({ question: `What does this document say about ${term}?`, icon: 'doc' });
  if (d.company_name) {
    out.push({ question: `What did ${d.company_name} report in this document?`, icon: 'chart' });
  }
  out.push({ question: `What are the key points of “${shortTitle(d.title)}”?`, icon: 'doc' });
  return out.slice(0, DOCUMENT);
}

export async function suggestions(
  db: Db,
  viewer: Viewer,
  query: { board_id?: string; document_id?: string },
): Promise<MessagingAnswer> {
  const all = pick(await newestIn(db, await searchScope(db, viewer, {})), ALL);
  let feed: Suggestion[] = [];
  if (query.board_id !== undefined) {
    const scope: SearchScope =
      query.board_id === universeId(viewer.product)
        ? { viewerId: viewer.userId, feeds: [], sourceIds: [], publicCorpus: true, ownedBy: null }
        : await searchScope(db, viewer, { board_id: query.board_id });
    feed = pick(await newestIn(db, scope), FEED);
  }
  let document: Suggestion[] = [];
  if (query.document_id !== undefined) {
    const doc = (await visibleDocuments(db, viewer.userId)
      .select([...FACT_COLUMNS])
      .where('d.id', '=', query.document_id)
      .executeTakeFirst()) as Facts | undefined;
    if (!doc) throw new ApiError(404, 'not_found', `no such document: ${query.document_id}`);
    document = documentQuestions(doc);
  }
  return { all, feed, document };
}
