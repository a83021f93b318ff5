import type { AskSession, Chat, ChatMessage, SessionSummary } from '../../../contract/assistant';
import type { Variant } from '../../../contract/worker-api';
import { ApiError, isNetworkError } from '../../api-client';
import type { DomainCtx } from '../../registry';
import type { Owner } from '../../session';
import type { Connection } from '../../tabs';
import { createLiveUpdates, lastBot, newLive, type LiveChat } from './assistant-live';
import {
  chatOf,
  keptMessages,
  readMessages,
  serverSessionWrites,
  SESSIONS,
  type Ctx,
  type S,
} from './assistant-store';

/**
 * The worker's chats: one per session id, in memory while a tab watches it or a question of
 * it streams (assistant-ask.ts), else in the mirror. A tab watching a chat gets it at once
 * (from memory, the mirror, or the server) and then its updates; a chat read from the mirror
 * is compared with the server's behind it.
 */

export type Run = { controller: AbortController; messageId: string; ended: boolean };
/** `owner`: the session the chat was opened in; what it writes lands only while that lasts. */
export type Entry = LiveChat & { run: Run | null; owner: Owner };

/** The assistant's state in a workspace (its `state` in assistant.ts). */
export type Chats = {
  /** The workspace's context (the state's own parts need no state). */
  ctx: Ctx;
  /** The session (its id) the chats in memory belong to. */
  session: string | null;
  lives: Map<string, Entry>;
  loading: Map<string, Promise<Entry | null>>;
  updates: ReturnType<typeof createLiveUpdates>;
};

/** A workspace's chats: none yet, their patches on the workspace's clock. */
export const createChats = (ctx: Ctx): Chats => ({
  ctx,
  session: null,
  lives: new Map(),
  loading: new Map(),
  updates: createLiveUpdates({ clock: ctx.clock, deliver: ctx.deliver }),
});

/** What the assistant's ops are handed: the context with the workspace's chats. */
export type ChatsCtx = DomainCtx<S, Chats>;

/** The workspace's chats, of the current session only (a sign-out forgets the others). */
export function chatsOf(ctx: ChatsCtx): Chats {
  const chats = ctx.state;
  const session = ctx.owner()?.session_id ?? null;
  if (chats.session !== session) {
    for (const entry of chats.lives.values()) entry.run?.controller.abort();
    chats.lives.clear();
    chats.loading.clear();
    chats.session = session;
  }
  return chats;
}

/** A chat now in memory, for the session signed in now. */
export function newEntry(ctx: Ctx, chat: Chat): Entry {
  const owner = ctx.owner();
  if (!owner) throw new ApiError(401, 'no_token', 'The assistant needs a signed-in session');
  return { ...newLive(chat), run: null, owner };
}

/** The server's session, or null when it has none under this id. */
export async function fetchSession(ctx: Ctx, id: string, variant: Variant, background: boolean) {
  return ctx.reads.once(`ask.session\u0000${id}`, async () => {
    try {
      return await ctx.client.call('askSession', {
        params: { id },
        variant,
        background,
        signal: ctx.signal(),
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  });
}

const content = (messages: ChatMessage[]) =>
  JSON.stringify(
    messages.flatMap((m) => (m.type === 'bot' ? [[m.prompt, m.streamingAnswer, m.phase]] : [])),
  );

/**
 * Keeps the server's session in the mirror, unless it lacks exchanges the mirror or the chat
 * holds (`local`): the server keeps a stopped answer once it has noticed the stop, which may
 * be after this worker asked.
 */
export async function keepServerSession(ctx: Ctx, owner: Owner, session: AskSession, local = 0) {
  const mirror = await ctx.mirror;
  const held = await readMessages(mirror, session.id);
  const known = Math.max(held.length, local);
  if (known > session.state.messages.length) return false;
  await ctx.reads.store(await serverSessionWrites(mirror, session), owner);
  return true;
}

/** Puts `title` on the chat: with the stream's next patch, or a patch of its own. */
export function setTitle(chats: Chats, entry: Entry, title: string) {
  if (!title || entry.chat.title === title) return;
  const run = entry.run && !entry.run.ended ? entry.run : null;
  const bot = run ? { id: run.messageId } : lastBot(entry.chat);
  if (bot) chats.updates.queue(entry, { messageId: bot.id, title }, run === null);
  else chats.updates.reset(entry, (chat) => ({ ...chat, title }));
}

/** The server's version of a chat no question streams in now, sent to its watchers if it moved. */
function revalidate(chats: Chats, entry: Entry) {
  const { ctx } = chats;
  const id = entry.chat.sessionId;
  const work = fetchSession(ctx, id, ctx.variant(), true).then(async (session) => {
    // Deleted here meanwhile (no longer the live chat): nothing of it is written back.
    if (!session || chats.lives.get(id) !== entry) return;
    const local = keptMessages(entry.chat, '').length;
    if (!(await keepServerSession(ctx, entry.owner, session, local)) || entry.run) return;
    const next = chatOf(session, session.state.messages);
    if (content(next.messages) !== content(entry.chat.messages)) {
      chats.updates.reset(entry, () => next);
    } else setTitle(chats, entry, session.title);
  });
  ctx.track(work.catch(() => {}));
}

/**
 * The live chat of `id`: in memory, else from the mirror (compared with the server's behind
 * it), else the server's (kept in the mirror). A session the history list brought has no
 * exchanges mirrored: the server's are waited for, unless it cannot be reached. null: the
 * server has no such session.
 */
export async function load(chats: Chats, id: string, variant: Variant): Promise<Entry | null> {
  const live = chats.lives.get(id);
  if (live) return live;
  const loading = chats.loading.get(id);
  if (loading) return loading;
  const { ctx } = chats;
  const owner = ctx.owner();
  if (!owner) throw new ApiError(401, 'no_token', 'The assistant needs a signed-in session');
  const made = (async () => {
    const mirror = await ctx.mirror;
    const summary = await mirror.get<SessionSummary>(SESSIONS, id);
    const messages = await readMessages(mirror, id);
    let chat = summary && messages.length ? chatOf(summary, messages) : null;
    if (!chat) {
      const session = await fetchSession(ctx, id, variant, false).catch((error: unknown) => {
        if (summary && isNetworkError(error)) return undefined;
        throw error;
      });
      if (session === null) return null;
      if (session) await keepServerSession(ctx, owner, session);
      chat = session ? chatOf(session, session.state.messages) : chatOf(summary!, messages);
    }
    const entry: Entry = { ...newLive(chat), run: null, owner };
    chats.lives.set(id, entry);
    if (summary && messages.length) revalidate(chats, entry);
    return entry;
  })().finally(() => chats.loading.delete(id));
  chats.loading.set(id, made);
  return made;
}

export function forgetIfIdle(chats: Chats, entry: Entry) {
  const id = entry.chat.sessionId;
  if (!entry.run && entry.watchers.size === 0 && chats.lives.get(id) === entry) {
    chats.lives.delete(id);
  }
}

/** ask.watch: the chat now; its updates follow to this connection until unwatch. */
export async function askWatch(ctx: ChatsCtx, sessionId: string, conn: Connection) {
  const chats = chatsOf(ctx);
  const entry = await load(chats, sessionId, conn.variant);
  if (!entry) throw new ApiError(404, 'not_found', `No assistant session ${sessionId}`);
  entry.watchers.add(conn);
  return entry.chat;
}

export function askUnwatch(ctx: ChatsCtx, sessionId: string, conn: Connection) {
  const chats = chatsOf(ctx);
  const entry = chats.lives.get(sessionId);
  if (!entry) return {};
  entry.watchers.delete(conn);
  forgetIfIdle(chats, entry);
  return {};
}
