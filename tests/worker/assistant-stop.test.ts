import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskAnswer, AskSession } from '../../contract/assistant';
import type { StartOptions } from '../../server/start';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai';
import { serverView, setupWorkspaceSuite } from './support';
import { ALL, askingUser, botOf, insertQuokkaDocs, patchIn } from './assistant-support';

/**
 * Stopping: the real server answers through a slow model (a local OpenAI-compatible server),
 * so a question is still streaming when the worker stops it, or when a newer question in the
 * same chat supersedes it. The server sees the request go away and keeps the answer stopped.
 */

/** Long enough to be streaming still when the test stops it (80 characters a second). */
const SLOW_REPLY = `${'Quokkas eat leaves and grasses on Rottnest Island. '.repeat(20)}[1]`;
/** The passages "What do quokkas eat?" reads, by the number the answer cites them by. */
const STOPPED_SOURCES = [
  ['1', 'Quokka diet study'],
  ['2', 'Quokka census results'],
];
const FAST_REPLY = 'Quokkas eat leaves, grasses and succulent plants on Rottnest Island. [1]';

let fake: FakeOpenAi;
const options: StartOptions = { ingest: false };
beforeAll(async () => {
  fake = await startFakeOpenAi({ script: { reply: SLOW_REPLY, tokensPerSecond: 20 } });
  options.llm = { baseUrl: fake.baseUrl, model: 'test-model' };
});
afterAll(() => fake?.close());
const suite = setupWorkspaceSuite(options);
beforeAll(() => insertQuokkaDocs(suite.env));

/** The server's session, once `ready` holds for it (the server keeps a stop once it sees it). */
async function serverSession(
  user: { email: string; password: string },
  id: string,
  ready: (s: AskSession) => boolean,
) {
  const view = await serverView(suite.env.baseUrl, user.email, user.password);
  for (let i = 0; i < 100; i += 1) {
    const session = (await view.get(`/ml/ask-needl/sessions/${id}`)) as AskSession;
    if (ready(session)) return session;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server's session ${id} never got there`);
}

const streamingSome = (messageId: string) => patchIn(messageId, 'streaming');

describe('ask.stop', () => {
  it('aborts the request and keeps what streamed, marked generatingStopped', async () => {
    fake.setScript({ reply: SLOW_REPLY, tokensPerSecond: 20 });
    const { tab, user, ws } = await askingUser(suite);
    const asked = await tab.api.call('ask.send', { prompt: 'What do quokkas eat?', scope: ALL });
    await tab.api.call('ask.watch', { sessionId: asked.sessionId });
    await tab.waitFor(streamingSome(asked.messageId));

    expect(await tab.api.call('ask.stop', { sessionId: asked.sessionId })).toEqual({
      stopped: true,
    });
    const stopped = await tab.waitFor(patchIn(asked.messageId, 'stopped'));
    expect(stopped).toMatchObject({ update: { generatingStopped: true } });
    const bot = botOf(
      await tab.api.call('ask.watch', { sessionId: asked.sessionId }),
      asked.messageId,
    )!;
    expect(bot).toMatchObject({ phase: 'stopped', generatingStopped: true, error: null });
    expect(bot.streamingAnswer.length).toBeGreaterThan(0);
    expect(SLOW_REPLY.startsWith(bot.streamingAnswer)).toBe(true);
    // It keeps the sources it had (SOURCES came before the first chunk): its Sources list.
    const sourcesOf = (data: AskAnswer | null) =>
      (data?.generated_answer.sentences ?? []).flatMap((s) =>
        s.citations.map((c) => [c.id, c.title_label]),
      );
    expect(sourcesOf(bot.data)).toEqual(STOPPED_SOURCES);
    // Nothing is streaming now: a second stop has nothing to stop.
    expect(await tab.api.call('ask.stop', { sessionId: asked.sessionId })).toEqual({
      stopped: false,
    });

    // The server saw the request go away: the model's stream was aborted, the answer kept
    // as stopped with what it had written (what the tab shows, and maybe a little more).
    expect(await fake.requests.at(-1)!.outcome).toBe('aborted');
    const session = await serverSession(user, asked.sessionId, (s) => s.state.messages.length > 0);
    expect(session.state.messages.map((m) => m.status)).toEqual(['stopped']);
    expect(session.state.messages[0].answer.startsWith(bot.streamingAnswer)).toBe(true);
    // The server keeps the same sources with it: the tab shows them after a reload too.
    expect(sourcesOf(session.state.messages[0].data)).toEqual(STOPPED_SOURCES);

    // The chat's stopped answer is kept in the mirror (history).
    await ws.workspace.idle();
    const { sessions } = await tab.api.call('ask.sessions', {});
    expect(sessions.map((s) => [s.id, s.title])).toEqual([
      [asked.sessionId, 'What do quokkas eat?'],
    ]);
  });

  it('a newer question in the chat aborts the one streaming: it stays, stopped', async () => {
    fake.setScript({ reply: SLOW_REPLY, tokensPerSecond: 20 });
    const { tab, user, net } = await askingUser(suite);
    const first = await tab.api.call('ask.send', { prompt: 'What do quokkas eat?', scope: ALL });
    await tab.api.call('ask.watch', { sessionId: first.sessionId });
    await tab.waitFor(streamingSome(first.messageId));

    fake.setScript({ reply: FAST_REPLY });
    // A question the documents answer (issue 16: the model is not asked when none does).
    const second = await tab.api.call('ask.send', {
      prompt: 'How many quokkas were counted on Rottnest Island?',
      sessionId: first.sessionId,
      scope: ALL,
    });
    expect(second.sessionId).toBe(first.sessionId);
    await tab.waitFor(patchIn(first.messageId, 'stopped'));
    await tab.waitFor(patchIn(second.messageId, 'done'));

    const chat = await tab.api.call('ask.watch', { sessionId: first.sessionId });
    expect(chat.messages.map((m) => [m.type, m.prompt])).toEqual([
      ['user', 'What do quokkas eat?'],
      ['bot', 'What do quokkas eat?'],
      ['user', 'How many quokkas were counted on Rottnest Island?'],
      ['bot', 'How many quokkas were counted on Rottnest Island?'],
    ]);
    expect(botOf(chat, first.messageId)).toMatchObject({
      phase: 'stopped',
      generatingStopped: true,
    });
    expect(botOf(chat, second.messageId)).toMatchObject({
      phase: 'done',
      streamingAnswer: FAST_REPLY,
    });

    expect(net.asks()).toHaveLength(2);
    expect(await fake.requests.at(-2)!.outcome).toBe('aborted');
    const session = await serverSession(user, first.sessionId, (s) => s.state.messages.length > 1);
    expect(Object.fromEntries(session.state.messages.map((m) => [m.prompt, m.status]))).toEqual({
      'What do quokkas eat?': 'stopped',
      'How many quokkas were counted on Rottnest Island?': 'done',
    });
  });
});
