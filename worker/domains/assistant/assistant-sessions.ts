import { ChatState, DEFAULT_CHAT_STATE, type SessionSummary } from '../../../contract/assistant';
import type { Variant } from '../../../contract/worker-api';
import { isNetworkError } from '../../api-client';
import type { Mirror, PatchItem } from '../../mirror';
import type { CachedRead } from '../../reads';
import {
  LIST_MARK,
  messageDeletes,
  readMessages,
  readSessions,
  SESSIONS,
  summaryOf,
  type Ctx,
  type S,
} from './assistant-store';

/**
 * History: the sessions list answered from the mirror at once and revalidated from the server
 * behind it (tabs hear 'changed' on assistant_sessions when it moved); a search asks the
 * server, or looks through the mirror when the server cannot be reached. And the chat state
 * of 001 §3, kept per user in 'kv'.
 */

/** The server's list holds at most this many (SessionsQuery's limit). */
const LIST_LIMIT = 500;

export type SessionsAnswer = { sessions: SessionSummary[]; fresh: boolean };

const listRead = (ctx: Ctx, variant: Variant): CachedRead<SessionSummary[], S> => ({
  key: 'ask.sessions',
  async read() {
    const mirror = await ctx.mirror;
    if (!(await mirror.get(SESSIONS, LIST_MARK))) return undefined;
    return readSessions(mirror);
  },
  async fetch({ background, signal }) {
    const answer = await ctx.client.call('askSessions', {
      query: { limit: LIST_LIMIT },
      variant,
      background,
      signal,
    });
    const mirror = await ctx.mirror;
    const listed = new Set(answer.sessions.map((s) => s.id));
    const gone = (await readSessions(mirror)).filter((s) => !listed.has(s.id));
    const items: PatchItem<S>[] = [];
    for (const session of gone) {
      items.push({ store: SESSIONS, key: session.id });
      items.push(...(await messageDeletes(mirror, session.id)));
    }
    for (const s of answer.sessions)
      items.push({ store: SESSIONS, key: s.id, value: summaryOf(s) });
    items.push({ store: SESSIONS, key: LIST_MARK, value: { id: LIST_MARK } });
    return items;
  },
});

/** ask.sessions with no query: the mirror's list now, the server's behind it. */
async function listSessions(ctx: Ctx, variant: Variant): Promise<SessionsAnswer> {
  const read = listRead(ctx, variant);
  const held = await read.read();
  if (held !== undefined) {
    const again = ctx.reads.refetch(read, { background: true, announce: true });
    ctx.track(again.catch(() => {}));
    return { sessions: held, fresh: false };
  }
  try {
    return {
      sessions: await ctx.reads.refetch(read, { background: false, announce: false }),
      fresh: true,
    };
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    // Offline and never listed: the sessions asked in here are all there is.
    return { sessions: await readSessions(await ctx.mirror), fresh: false };
  }
}

const sentences = (text: string) => text.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim());

/** The first sentence of `texts` holding `q` (any case), if any. */
function matchIn(texts: string[], q: string) {
  const needle = q.toLowerCase();
  for (const text of texts) {
    const hit = sentences(text).find((s) => s.toLowerCase().includes(needle));
    if (hit) return hit.trim();
  }
  return null;
}

/** The mirror's sessions whose title or exchanges hold `q`, with the sentence that matched. */
export async function matchLocally(mirror: Mirror<S>, q: string): Promise<SessionSummary[]> {
  const found: SessionSummary[] = [];
  for (const session of await readSessions(mirror)) {
    const messages = await readMessages(mirror, session.id);
    const matched = matchIn(
      [session.title, ...messages.flatMap((m) => [m.prompt, m.answer])],
      q.trim(),
    );
    if (matched !== null) found.push({ ...session, matched_sentence: matched });
  }
  return found;
}

export async function askSessions(ctx: Ctx, q: string | undefined, variant: Variant) {
  if (!q?.trim()) return listSessions(ctx, variant);
  try {
    const answer = await ctx.client.call('askSessions', {
      query: { q: q.trim(), limit: LIST_LIMIT },
      variant,
      signal: ctx.signal(),
    });
    return { sessions: answer.sessions, fresh: true };
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    return { sessions: await matchLocally(await ctx.mirror, q), fresh: false };
  }
}

// ---------------------------------------------------------------------------------------------
// The chat state (001 §3), per user

const stateKey = (userId: string) => `assistant.state:${userId}`;

export async function readChatState(ctx: Ctx): Promise<ChatState> {
  const owner = ctx.owner();
  if (!owner) return DEFAULT_CHAT_STATE;
  const held = await (await ctx.mirror).get('kv', stateKey(owner.user_id));
  const parsed = ChatState.safeParse(held);
  return parsed.success ? parsed.data : DEFAULT_CHAT_STATE;
}

/** Merges `patch` into the user's chat state, in one transaction, while the session lasts. */
export async function writeChatState(ctx: Ctx, patch: Partial<ChatState>): Promise<ChatState> {
  const owner = ctx.owner();
  if (!owner) throw new Error('ask.setState: not signed in');
  const key = stateKey(owner.user_id);
  const next = await (
    await ctx.mirror
  ).transact(['kv'], async (tx) => {
    if (!owner.guard.holds(await tx.get('kv', owner.guard.key))) return null;
    const held = ChatState.safeParse(await tx.get('kv', key));
    const merged = ChatState.parse({
      ...(held.success ? held.data : DEFAULT_CHAT_STATE),
      ...patch,
    });
    tx.put({ store: 'kv', key, value: merged });
    return merged;
  });
  if (!next) throw new Error('ask.setState: the session changed before the state was kept');
  return next;
}
