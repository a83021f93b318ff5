import type { z } from 'zod';
import {
  sessionTitle,
  stoppedAnswer,
  type AskEvent,
  type AskSources,
  type AskSession,
  type assistant,
  type SessionSummary,
} from '../../../contract/assistant';
import type { Connection } from '../../tabs';
import {
  chatsOf,
  type ChatsCtx,
  fetchSession,
  forgetIfIdle,
  keepServerSession,
  load,
  newEntry,
  setTitle,
  type Chats,
  type Entry,
  type Run,
} from './assistant-chats';
import {
  chatOf,
  internCitations,
  keptMessages,
  SESSIONS,
  sessionWrites,
  summaryOf,
  type Ctx,
} from './assistant-store';
import { scopeMetadata, streamAsk, type AskRequest } from './assistant-stream';

/**
 * Asking: ask.send adds the question and its empty answer to the chat, answers at once and
 * streams on (one request, whatever the number of tabs watching); a newer question in the
 * chat, or ask.stop, aborts the request streaming in it, and what streamed stays, stopped.
 * When the answer ends the chat's exchanges are kept in the mirror with the server's title.
 */

type SendInput = z.output<(typeof assistant.ops)['ask.send']['input']>;

const nowIso = (ctx: Ctx) => new Date(ctx.clock.now()).toISOString();

/** What a run has received before DONE (SOURCES, the text): what a stop keeps. */
const received = new WeakMap<Run, { text: string; sources: AskSources | null }>();
const receivedOf = (run: Run) => {
  let got = received.get(run);
  if (!got) received.set(run, (got = { text: '', sources: null }));
  return got;
};

/**
 * The update that ends a run stopped: what streamed stays, with the sources it had (as the
 * server keeps it: contract stoppedAnswer), so its Sources list and markers still open them.
 */
function stoppedUpdate(entry: Entry, run: Run) {
  const { text, sources } = receivedOf(run);
  const ids = { message_id: run.messageId, session_id: entry.chat.sessionId };
  return {
    messageId: run.messageId,
    phase: 'stopped' as const,
    generatingStopped: true,
    ...(sources ? { data: internCitations(stoppedAnswer(text, sources, ids)) } : {}),
  };
}

/** Stops the question streaming in the chat (stop, or a newer question): it stays, stopped. */
function stopRun(chats: Chats, entry: Entry) {
  const run = entry.run;
  if (!run || run.ended) return false;
  run.ended = true;
  run.controller.abort();
  chats.updates.queue(entry, stoppedUpdate(entry, run), true);
  return true;
}

function onEvent(chats: Chats, entry: Entry, run: Run, event: AskEvent) {
  if (run.ended) return;
  const { queue } = chats.updates;
  const messageId = run.messageId;
  switch (event.status) {
    case 'INTERMEDIATE_STEP':
      return queue(entry, { messageId, steps: event.data.steps });
    case 'SOURCES':
      receivedOf(run).sources = event.data;
      return;
    case 'GENERATED_ANSWER':
      receivedOf(run).text += event.data.answer_chunk;
      return queue(entry, { messageId, append: event.data.answer_chunk, phase: 'streaming' });
    case 'GENERATING_CITATIONS':
      return queue(entry, { messageId, phase: 'citing' });
    case 'DONE':
      run.ended = true;
      return queue(entry, { messageId, phase: 'done', data: internCitations(event.data) }, true);
  }
}

/** Writes the chat's finished exchanges, and takes the server's title for it. */
async function persist(chats: Chats, entry: Entry) {
  const { ctx } = chats;
  const { owner } = entry;
  const id = entry.chat.sessionId;
  // No longer the live chat: it was deleted here (ask.delete); nothing of it is written back.
  if (chats.lives.get(id) !== entry) return;
  const mirror = await ctx.mirror;
  let session: AskSession | null = null;
  try {
    session = await fetchSession(ctx, id, ctx.variant(), true);
    // The server keeps no such session (the question never reached it): nothing to keep.
    if (!session) return;
  } catch {
    // Offline: the chat as it stands is kept, for history, until the server is heard again.
  }
  const now = nowIso(ctx);
  const kept = keptMessages(entry.chat, now);
  if (session && (await keepServerSession(ctx, owner, session, kept.length))) {
    setTitle(chats, entry, session.title);
    return;
  }
  const held = await mirror.get<SessionSummary>(SESSIONS, id);
  const first = entry.chat.messages.find((m) => m.type === 'user')?.prompt ?? '';
  const summary: SessionSummary = session
    ? summaryOf(session)
    : {
        id,
        sessionId: id,
        title: entry.chat.title || held?.title || sessionTitle(first),
        type: entry.chat.metadata.type,
        updated_at: now,
        created_at: held?.created_at ?? now,
        metadata: entry.chat.metadata,
        matched_sentence: null,
      };
  await ctx.reads.store(await sessionWrites(mirror, summary, kept), owner);
  if (session) setTitle(chats, entry, session.title);
}

async function runAsk(chats: Chats, entry: Entry, run: Run, request: AskRequest) {
  const { ctx, updates } = chats;
  const session = ctx.signal();
  const abort = () => run.controller.abort();
  session.addEventListener('abort', abort, { once: true });
  if (session.aborted) abort();
  const end = await streamAsk(ctx.client, request, run.controller.signal, (event) =>
    onEvent(chats, entry, run, event),
  );
  session.removeEventListener('abort', abort);
  if (!run.ended) {
    run.ended = true;
    const messageId = run.messageId;
    if (end.kind === 'error')
      updates.queue(entry, { messageId, phase: 'error', error: end.message }, true);
    else updates.queue(entry, stoppedUpdate(entry, run), true);
  }
  if (entry.run === run) entry.run = null;
  await persist(chats, entry);
  forgetIfIdle(chats, entry);
}

/**
 * ask.send: adds the question and its empty answer, answers at once, streams on; the asking
 * connection watches the chat.
 */
export async function askSend(ctx: ChatsCtx, input: SendInput, conn: Connection) {
  const chats = chatsOf(ctx);
  const sessionId = input.sessionId ?? crypto.randomUUID();
  let entry = input.sessionId ? await load(chats, sessionId, conn.variant).catch(() => null) : null;
  if (!entry) {
    const metadata = scopeMetadata(input.scope, ctx.product);
    entry = newEntry(ctx, chatOf({ id: sessionId, title: '', metadata }, []));
    chats.lives.set(sessionId, entry);
  }
  stopRun(chats, entry);
  // The asking tab watches from the start: nothing (a fast failure) is missed before its
  // ask.watch; the new question reaches it with the chat's reset.
  entry.watchers.add(conn);
  const messageId = crypto.randomUUID();
  const run: Run = { controller: new AbortController(), messageId, ended: false };
  entry.run = run;
  chats.updates.reset(entry, (chat) => ({
    ...chat,
    streaming: true,
    messages: [
      ...chat.messages,
      {
        type: 'user',
        id: `${messageId}:q`,
        botMessageId: messageId,
        prompt: input.prompt,
        attachments: input.attachments ?? [],
      },
      {
        type: 'bot',
        id: messageId,
        prompt: input.prompt,
        mode: input.mode,
        pro: input.pro,
        phase: 'loading',
        streamingAnswer: '',
        intermediateSteps: [],
        data: null,
        generatingStopped: false,
        error: null,
        feedback: null,
      },
    ],
  }));
  const { prompt, scope, mode, pro, timezone } = input;
  const request = { prompt, scope, mode, pro, timezone, sessionId, variant: conn.variant };
  ctx.track(runAsk(chats, entry, run, request));
  return { sessionId, messageId };
}

export function askStop(ctx: ChatsCtx, sessionId: string) {
  const entry = chatsOf(ctx).lives.get(sessionId);
  return { stopped: entry ? stopRun(chatsOf(ctx), entry) : false };
}
