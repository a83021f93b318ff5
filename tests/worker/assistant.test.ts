import { beforeAll, describe, expect, it } from 'vitest';
import { createGate, setupWorkspaceSuite } from './support';
import {
  ALL,
  applyUpdates,
  askEvents,
  askingUser,
  botOf,
  insertQuokkaDocs,
  patches,
  patchIn,
  QUOKKA_DOCS,
  scriptedStream,
  T0,
  titlePatch,
} from './assistant-support';

/**
 * The worker's chats against the real server: a question streams once into every tab
 * watching its chat, ends with DONE's answer, and fails visibly.
 */
const suite = setupWorkspaceSuite({ ingest: false });
beforeAll(() => insertQuokkaDocs(suite.env));

const ANSWER = 'Quokkas eat leaves, grasses and succulent plants on Rottnest Island. [1]';
const QUESTION = 'What do quokkas eat?';

describe('ask.send and ask.watch', () => {
  it('streams the answer into the chat and ends with its citations and title', async () => {
    const { tab, net } = await askingUser(suite);
    const asked = await tab.api.call('ask.send', { prompt: QUESTION, scope: ALL });
    const first = await tab.api.call('ask.watch', { sessionId: asked.sessionId });
    expect(first.messages.map((m) => [m.type, m.prompt])).toEqual([
      ['user', QUESTION],
      ['bot', QUESTION],
    ]);
    await tab.waitFor(titlePatch);

    // The tab's chat, from the snapshot and the patches, is the worker's.
    const updates = askEvents(tab).map((e) => e.update);
    const shown = applyUpdates(first, updates);
    expect(shown).toEqual(await tab.api.call('ask.watch', { sessionId: asked.sessionId }));
    expect(shown.title).toBe('What do quokkas eat?');
    const bot = botOf(shown, asked.messageId)!;
    expect(bot).toMatchObject({
      phase: 'done',
      streamingAnswer: ANSWER,
      generatingStopped: false,
      error: null,
      intermediateSteps: [
        { id: 'search', text: 'Searching your data for “quokkas eat”', loading: false },
        { id: 'read', text: 'Read 2 passages from 2 documents', loading: false },
      ],
    });
    expect(bot.data?.generated_answer.answer).toBe(ANSWER);
    expect(bot.data?.session_id).toBe(asked.sessionId);
    const [cited] = bot.data!.generated_answer.sentences[0].citations;
    expect(cited).toMatchObject({
      id: '1',
      title_label: 'Quokka diet study',
      source_label: 'Markets Wire',
      url: QUOKKA_DOCS[0].url,
      unix: T0,
    });

    // The question went once, with the chat's session id and scope.
    expect(net.asks()).toHaveLength(1);
    expect(Object.fromEntries(net.asked[0])).toEqual({
      prompt: QUESTION,
      stream: 'true',
      timezone: 'UTC',
      pro: 'false',
      session_id: asked.sessionId,
      mode: 'answer',
    });
  });

  it('asks once for every tab watching the chat, and tells only the tabs watching it', async () => {
    const { ws, tab: a, net } = await askingUser(suite);
    const b = await ws.tab('tab-b');
    const c = await ws.tab('tab-c');
    // The answer waits until both tabs watch, so both see it all.
    const gate = createGate();
    net.state.rule = (url) =>
      new URL(url).pathname.endsWith('/ask-needl') ? { hold: gate.opened } : null;
    const asked = await a.api.call('ask.send', { prompt: QUESTION, scope: ALL });
    const chatA = await a.api.call('ask.watch', { sessionId: asked.sessionId });
    const chatB = await b.api.call('ask.watch', { sessionId: asked.sessionId });
    expect(chatB).toEqual(chatA);
    gate.open();
    await a.waitFor(patchIn(asked.messageId, 'done'));
    await b.waitFor(patchIn(asked.messageId, 'done'));
    await ws.workspace.idle();

    expect(net.asks()).toHaveLength(1);
    // Tab a asked (its chat's reset came first); both got the same patches.
    const seenA = patches(a);
    expect(patches(b)).toEqual(seenA);
    expect(botOf(applyUpdates(chatB, seenA), asked.messageId)?.streamingAnswer).toBe(ANSWER);
    expect(askEvents(c)).toEqual([]);

    // Tab b stops watching: the next question's updates reach tab a only.
    await b.api.call('ask.unwatch', { sessionId: asked.sessionId });
    const sinceB = b.events.length;
    const again = await a.api.call('ask.send', {
      prompt: 'How many quokkas live on Rottnest Island?',
      sessionId: asked.sessionId,
      scope: ALL,
    });
    await a.waitFor(patchIn(again.messageId, 'done'));
    expect(askEvents(b, sinceB)).toEqual([]);
    expect(askEvents(c)).toEqual([]);
    expect(net.asks()).toHaveLength(2);
    expect(net.asked[1].get('session_id')).toBe(asked.sessionId);
  });

  it('sends the scope: documents repeated, a feed, the web', async () => {
    const { tab, net, ws } = await askingUser(suite);
    const ask = async (scope: Parameters<typeof tab.api.call<'ask.send'>>[1]['scope']) => {
      const asked = await tab.api.call('ask.send', {
        prompt: 'quokka numbers',
        scope,
        mode: 'search',
      });
      await tab.api.call('ask.watch', { sessionId: asked.sessionId });
      await tab.waitFor(patchIn(asked.messageId, 'done', 'error'));
    };
    await ask({
      searchWithin: 'document',
      currentFeedOrDocumentId: 'd1',
      document_ids: ['d1', 'd2'],
      source: 'demo_markets_wire',
    });
    await ask({ searchWithin: 'feed', currentFeedOrDocumentId: 'home' });
    await ask({ searchWithin: 'all', currentFeedOrDocumentId: 'needl_universe' });
    await ws.workspace.idle();
    const scopes = net.asked.map((q) => ({
      document_id: q.getAll('document_id'),
      board_id: q.get('board_id'),
      source: q.get('source'),
      mode: q.get('mode'),
    }));
    expect(scopes).toEqual([
      { document_id: ['d1', 'd2'], board_id: null, source: 'demo_markets_wire', mode: 'search' },
      { document_id: [], board_id: null, source: null, mode: 'search' },
      { document_id: [], board_id: 'needl_universe', source: null, mode: 'search' },
    ]);
  });
});

describe('a failed answer', () => {
  it('an [ERROR] line ends the answer in the error state, keeping what streamed', async () => {
    const { tab, net } = await askingUser(suite);
    const stream = scriptedStream();
    net.state.rule = (url) =>
      new URL(url).pathname.endsWith('/ask-needl') ? stream.response() : null;
    const asked = await tab.api.call('ask.send', { prompt: QUESTION, scope: ALL });
    await tab.api.call('ask.watch', { sessionId: asked.sessionId });
    await stream.event({ status: 'GENERATED_ANSWER', data: { answer_chunk: 'Quokkas eat' } });
    await stream.event('[ERROR] The model is unavailable');
    const failed = await tab.waitFor(patchIn(asked.messageId, 'error'));
    expect(failed).toMatchObject({ update: { error: 'The model is unavailable', length: 11 } });
    const chat = await tab.api.call('ask.watch', { sessionId: asked.sessionId });
    expect(botOf(chat, asked.messageId)).toMatchObject({
      phase: 'error',
      streamingAnswer: 'Quokkas eat',
      error: 'The model is unavailable',
      generatingStopped: false,
    });
    // Nothing after the error line is read.
    expect(stream.cancelled()).toBe(true);
  });

  it('a stream that ends before DONE, or no network, is an error too', async () => {
    const { tab, net } = await askingUser(suite);
    const stream = scriptedStream();
    net.state.rule = (url) =>
      new URL(url).pathname.endsWith('/ask-needl') ? stream.response() : null;
    const cut = await tab.api.call('ask.send', { prompt: QUESTION, scope: ALL });
    await tab.api.call('ask.watch', { sessionId: cut.sessionId });
    await stream.event({ status: 'GENERATED_ANSWER', data: { answer_chunk: 'Quokkas' } });
    await stream.end();
    expect(await tab.waitFor(patchIn(cut.messageId, 'error'))).toMatchObject({
      update: { error: 'The answer was cut off before it was complete', length: 7 },
    });

    net.state.rule = null;
    net.state.offline = true;
    const offline = await tab.api.call('ask.send', { prompt: QUESTION, scope: ALL });
    await tab.api.call('ask.watch', { sessionId: offline.sessionId });
    const failed = await tab.waitFor(patchIn(offline.messageId, 'error'));
    expect(failed).toMatchObject({
      update: {
        error: 'GET /ml/ask-needl did not reach the server (fetch failed (offline))',
        length: 0,
      },
    });
  });
});
