import type { AskAnswer, SessionSummary } from '../../contract/assistant';
import { fold, stemsOf } from '../../contract/words';
import type { Db } from '../db/schema';
import { splitSentences } from './sentences';
import { toSummary } from './sessions';

/**
 * The history's search (GET sessions?q): the user's sessions whose title, a question or an
 * answer holds every word of the text, matched by stem as search matches words
 * (contract/words.ts: "employ" finds "employed", "Café" finds "cafe"), each with the sentence
 * that matched. SQL's LIKE cannot stem or fold accents, so the user's own rows are read
 * newest first (at most MESSAGES_READ messages and SESSIONS_READ titles), each first tested
 * for a piece every word of a stem contains, then stemmed; at most MESSAGES_SCANNED messages
 * match.
 */

const MESSAGES_SCANNED = 2_000;
/** Messages and session titles read at most, newest first, and how many per read. */
const MESSAGES_READ = 10_000;
const SESSIONS_READ = 10_000;
const PAGE = 500;
/** Ids per `IN` list. */
const IDS_PER_QUERY = 500;

/** An answer's sentences without the markdown around them ([n] markers, bullets, escapes). */
function answerSentences(answer: string, data: AskAnswer | null): string[] {
  const kept = data?.generated_answer.sentences.map((s) => s.sentence) ?? [];
  if (kept.length) return kept;
  const plain = answer
    .replace(/\s*\[\d+\]/g, '')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '')
    .replace(/\\([\\`*_[\]<>#|~])/g, '$1');
  return splitSentences(plain).map((s) => plain.slice(s.start, s.end));
}

/** What a text must hold: the query's stems, and a piece of each that any word of it contains. */
type Wanted = { stems: string[]; pieces: string[] };

/**
 * A word's stem loses at most its last two letters against the word (Porter changes a word's
 * ending only: "compani" for "company"): the rest is in the folded text of any word of it.
 */
const wantedOf = (q: string): Wanted => {
  const stems = [...new Set(stemsOf(q))];
  return { stems, pieces: stems.map((s) => s.slice(0, Math.max(0, s.length - 2))) };
};

/** Whether a text holds every wanted stem (a cheap test of the pieces first). */
const holdsAll = (text: string, wanted: Wanted): boolean => {
  const folded = fold(text).toLowerCase();
  if (!wanted.pieces.every((p) => folded.includes(p))) return false;
  const stems = new Set(stemsOf(text));
  return wanted.stems.every((s) => stems.has(s));
};

const firstHolding = (texts: string[], wanted: Wanted) =>
  texts.find((t) => holdsAll(t, wanted)) ?? null;

export async function searchSessions(
  db: Db,
  userId: string,
  q: string,
  limit: number,
): Promise<SessionSummary[]> {
  const wanted = wantedOf(q);
  if (wanted.stems.length === 0 || limit <= 0) return [];

  // The newest message of each session that holds the words, whole or in its answer.
  const matched = new Map<string, { id: string; prompt: string; answer: string }>();
  let count = 0;
  for (let offset = 0; offset < MESSAGES_READ && count < MESSAGES_SCANNED; offset += PAGE) {
    const page = await db
      .selectFrom('assistant_messages')
      .select(['id', 'session_id', 'prompt', 'answer'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'asc')
      .limit(PAGE)
      .offset(offset)
      .execute();
    for (const m of page) {
      if (!holdsAll(m.prompt, wanted) && !holdsAll(m.answer, wanted)) continue;
      count++;
      if (!matched.has(m.session_id)) matched.set(m.session_id, m);
      if (count === MESSAGES_SCANNED) break;
    }
    if (page.length < PAGE) break;
  }

  // The sentence that matched: the question's, else the answer's (its stored sentences).
  const sentences = new Map<string, string>();
  const needAnswers: Array<[string, { id: string; prompt: string; answer: string }]> = [];
  for (const [sessionId, m] of matched) {
    const asked = firstHolding(
      splitSentences(m.prompt).map((s) => m.prompt.slice(s.start, s.end)),
      wanted,
    );
    if (asked) sentences.set(sessionId, asked);
    else needAnswers.push([sessionId, m]);
  }
  for (let i = 0; i < needAnswers.length; i += IDS_PER_QUERY) {
    const chunk = needAnswers.slice(i, i + IDS_PER_QUERY);
    const data = new Map(
      (
        await db
          .selectFrom('assistant_messages')
          .select(['id', 'data'])
          .where(
            'id',
            'in',
            chunk.map(([, m]) => m.id),
          )
          .execute()
      ).map((r) => [r.id, r.data ? (JSON.parse(r.data) as AskAnswer) : null]),
    );
    for (const [sessionId, m] of chunk) {
      const sentence = firstHolding(answerSentences(m.answer, data.get(m.id) ?? null), wanted);
      // Matched across a sentence break or inside markdown: the question stands for it.
      sentences.set(sessionId, sentence ?? m.prompt);
    }
  }

  // Sessions whose title holds the words.
  const ids = new Set(matched.keys());
  const titles = await db
    .selectFrom('assistant_sessions')
    .select(['id', 'title'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'asc')
    .limit(SESSIONS_READ)
    .execute();
  for (const t of titles) if (holdsAll(t.title, wanted)) ids.add(t.id);

  const all = [...ids];
  const rows = [];
  for (let i = 0; i < all.length; i += IDS_PER_QUERY) {
    rows.push(
      ...(await db
        .selectFrom('assistant_sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', 'in', all.slice(i, i + IDS_PER_QUERY))
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute()),
    );
  }
  // Newest first across the reads (one read: already so).
  if (all.length > IDS_PER_QUERY) {
    rows.sort((a, b) =>
      a.updated_at !== b.updated_at
        ? a.updated_at < b.updated_at
          ? 1
          : -1
        : a.id < b.id
          ? -1
          : a.id > b.id
            ? 1
            : 0,
    );
  }
  return rows.slice(0, limit).map((r) => toSummary(r, sentences.get(r.id) ?? r.title));
}
