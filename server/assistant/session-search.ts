import { sql } from 'kysely';
import type { AskAnswer, SessionSummary } from '../../contract/assistant';
import type { Db } from '../db/schema';
import { splitSentences } from './sentences';
import { toSummary } from './sessions';

/**
 * The history's search (GET sessions?q): the user's sessions whose title, questions or answer
 * sentences hold the text, case-insensitively (LIKE over the user's own rows only, the newest
 * MESSAGES_SCANNED messages at most), each with the sentence that matched.
 */

const MESSAGES_SCANNED = 2_000;

/** `%text%` with LIKE's own characters taken literally (ESCAPE '\'). */
const containing = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const likeLower = (column: string, pattern: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;

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

const holding = (texts: string[], q: string) =>
  texts.find((t) => t.toLowerCase().includes(q.toLowerCase())) ?? null;

export async function searchSessions(
  db: Db,
  userId: string,
  q: string,
  limit: number,
): Promise<SessionSummary[]> {
  const pattern = containing(q);
  const messages = await db
    .selectFrom('assistant_messages')
    .select(['session_id', 'prompt', 'answer', 'data'])
    .where('user_id', '=', userId)
    .where((eb) => eb.or([likeLower('prompt', pattern), likeLower('answer', pattern)]))
    .orderBy('created_at', 'desc')
    .limit(MESSAGES_SCANNED)
    .execute();
  const matched = new Map<string, string>();
  for (const m of messages) {
    if (matched.has(m.session_id)) continue;
    const data = m.data ? (JSON.parse(m.data) as AskAnswer) : null;
    const sentence =
      holding(
        splitSentences(m.prompt).map((s) => m.prompt.slice(s.start, s.end)),
        q,
      ) ?? holding(answerSentences(m.answer, data), q);
    // LIKE matched across a sentence break or inside markdown: the question stands for it.
    matched.set(m.session_id, sentence ?? m.prompt);
  }
  const ids = [...matched.keys()];
  const rows = await db
    .selectFrom('assistant_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) =>
      ids.length
        ? eb.or([likeLower('title', pattern), eb('id', 'in', ids)])
        : likeLower('title', pattern),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => toSummary(r, matched.get(r.id) ?? r.title));
}
