import { keywordProblem, type FeedChoices } from '../../contract/boards';
import { wordsOf } from '../../contract/words';
import type { Db } from '../db/schema';
import { homeFeedId } from './feed-entries';

/**
 * What the AI feed builder offers, drawn from the documents the user follows (their home feed):
 * companies by how many documents name them, topics from news categories and the words that
 * recur in recent headlines, and attributes (filing and research categories).
 */

const MAX_COMPANIES = 30;
const MAX_TOPICS = 20;
const MAX_ATTRIBUTES = 20;
/** Headlines read for topics: the newest this many. */
const RECENT = 2000;

/** Words too common in headlines to be a topic. */
const STOPWORDS = new Set(
  `a about above after again against all also among an and any are as at be been before being
  below between both but by can could did do does down during each few for from further had has
  have having he her here his how i if in into is it its just ltd inc corp co limited more most
  new no nor not now of off on once only or other our out over own per same says said she should
  so some such than that the their them then there these they this those through to too under
  until up very was we were what when where which while who why will with would year years you
  your q1 q2 q3 q4 rs crore million billion target quarter company shares share stock`.split(/\s+/),
);

/** Rows of `value, n` as [value, count], most first. */
async function countsBy(
  db: Db,
  feedId: string,
  column: 'company' | 'category',
  where: (tab: string) => boolean,
  limit: number,
): Promise<Array<[string, number]>> {
  const rows = await db
    .selectFrom('feed_entries')
    .select([column, 'tab', (eb) => eb.fn.countAll().as('n')])
    .where('feed_id', '=', feedId)
    .where('removed', '=', 0)
    .where(column, 'is not', null)
    .groupBy([column, 'tab'])
    .execute();
  const totals = new Map<string, number>();
  for (const r of rows) {
    const value = r[column] as string;
    if (where(r.tab)) totals.set(value, (totals.get(value) ?? 0) + Number(r.n));
  }
  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit);
}

/** Companies named by the user's documents, most documents first, with the counts. */
export const companyCounts = (db: Db, userId: string, limit = MAX_COMPANIES) =>
  countsBy(db, homeFeedId(userId), 'company', () => true, limit);

/** Filing and research categories of the user's documents, with the counts. */
export const attributeCounts = (db: Db, userId: string, limit = MAX_ATTRIBUTES) =>
  countsBy(db, homeFeedId(userId), 'category', (tab) => tab !== 'rss_news', limit);

const capitalise = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** News categories and recurring headline words of the newest documents, with counts. */
export async function topicCounts(
  db: Db,
  userId: string,
  companies: string[],
  limit = MAX_TOPICS,
): Promise<Array<[string, number]>> {
  const rows = await db
    .selectFrom('feed_entries as e')
    .innerJoin('documents as d', 'd.id', 'e.document_id')
    .select(['d.title', 'd.categories', 'e.tab'])
    .where('e.feed_id', '=', homeFeedId(userId))
    .where('e.removed', '=', 0)
    .orderBy('e.unix', 'desc')
    .limit(RECENT)
    .execute();
  const nameWords = new Set(companies.flatMap((c) => wordsOf(c)));
  const categories = new Map<string, number>();
  const words = new Map<string, number>();
  for (const row of rows) {
    if (row.tab === 'rss_news') {
      for (const c of JSON.parse(row.categories) as string[]) {
        categories.set(c, (categories.get(c) ?? 0) + 1);
      }
    }
    for (const w of new Set(wordsOf(row.title))) {
      if (w.length < 4 || /^\d/.test(w) || STOPWORDS.has(w) || nameWords.has(w)) continue;
      words.set(w, (words.get(w) ?? 0) + 1);
    }
  }
  const seen = new Set<string>();
  const out: Array<[string, number]> = [];
  const ranked = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  // Categories first (an editor chose them), then words that recur in at least three headlines.
  for (const [topic, n] of [...ranked(categories), ...ranked(words).filter(([, n]) => n >= 3)]) {
    const label = capitalise(topic);
    if (seen.has(label.toLowerCase())) continue;
    seen.add(label.toLowerCase());
    out.push([label, n]);
    if (out.length === limit) break;
  }
  return out;
}

/** GET /boards/feed_choices. */
export async function feedChoices(db: Db, userId: string): Promise<FeedChoices> {
  const companies = (await companyCounts(db, userId)).map(([c]) => c);
  const topics = (await topicCounts(db, userId, companies)).map(([t]) => t);
  const attributes = (await attributeCounts(db, userId)).map(([a]) => a);
  return { companies, topics, attributes };
}

/**
 * A term as a keyword of the boolean language: a single word as is, anything else as a quoted
 * phrase; it always passes the validator (keywordProblem).
 */
export function keywordFor(term: string): string {
  const plain = term
    .replace(/["\u201c\u201d]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (/^[\p{L}\p{N}]+$/u.test(plain)) return plain;
  const quoted = `"${plain}"`;
  return keywordProblem(quoted) === null ? quoted : `"${wordsOf(plain).join(' ')}"`;
}
