import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, documentIdOf, filingsReader, NIKE_TITLE, writeFilings } from './assistant-fixture';
import { addDocs, changesOf, follow, news, newUser } from './documents-helpers';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

const CURRENCY = 'what are the risks from foreign currency exchange rates?';
const SUPPLIERS = 'How does the company depend on its suppliers?';
const sessions = (h: Harness, token: string, query = '') =>
  h.call('GET', `/ml/ask-needl/sessions${query}`, { token });

describe.each(STORAGE_INDEPENDENT)('assistant sessions on %s', (storage) => {
  let h: Harness;
  let ada: { token: string; userId: string };
  let bob: { token: string };
  /** Ada's two sessions: currency (all her data), then suppliers (the web). */
  let currency: string;
  let suppliers: string;
  let messageId: string;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFilings(h);
    await addDocs(h, 'demo_markets_wire', [
      news('n1', 'RBI holds repo rate at 6.50%', 'The committee voted to hold the rate.', 1, {
        categories: ['Monetary Policy'],
      }),
    ]);
    ada = await filingsReader(h, 'Ada');
    await follow(h, ada.token, 'demo_markets_wire');
    bob = await filingsReader(h, 'Bob');
    const first = await ask(h, ada.token, { prompt: CURRENCY });
    currency = first.done!.session_id;
    messageId = first.done!.message_id;
    h.clock.now += 60_000;
    suppliers = (await ask(h, ada.token, { prompt: SUPPLIERS, board_id: 'needl_universe' })).done!
      .session_id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it("lists the user's sessions, most recently active first, titled by their question", async () => {
    const res = await sessions(h, ada.token);
    expect(res.status).toBe(200);
    expect(res.body.sessions).toEqual([
      {
        id: suppliers,
        sessionId: suppliers,
        title: 'How does the company depend on its suppliers?',
        type: 'web',
        created_at: '2025-03-03T10:01:00.000Z',
        updated_at: '2025-03-03T10:01:00.000Z',
        metadata: {
          type: 'web',
          board_id: 'needl_universe',
          channel_id: null,
          document_id: [],
          source: null,
          report_id: null,
        },
        matched_sentence: null,
      },
      expect.objectContaining({
        id: currency,
        title: 'What are the risks from foreign currency exchange rates?',
        type: 'all',
      }),
    ]);
    expect((await sessions(h, bob.token)).body.sessions).toEqual([]);
    expect((await sessions(h, ada.token, '?limit=1')).body.sessions).toHaveLength(1);
  });

  it('searches titles, questions and answer sentences, with the sentence that matched', async () => {
    const byQuestion = await sessions(h, ada.token, '?q=SUPPLIERS');
    expect(byQuestion.body.sessions.map((s: { id: string }) => s.id)).toEqual([suppliers]);
    expect(byQuestion.body.sessions[0].matched_sentence).toBe(SUPPLIERS);
    // Words match by stem, as search matches them (contract/words.ts), in any order.
    const byStem = await sessions(h, ada.token, '?q=depending%20SUPPLIER');
    expect(byStem.body.sessions.map((s: { id: string }) => s.id)).toEqual([suppliers]);
    expect(byStem.body.sessions[0].matched_sentence).toBe(SUPPLIERS);
    const byAnswer = await sessions(
      h,
      ada.token,
      `?q=${encodeURIComponent('relative to the U.S. Dollar')}`,
    );
    expect(byAnswer.body.sessions.map((s: { id: string }) => s.id)).toEqual([currency]);
    expect(byAnswer.body.sessions[0].matched_sentence).toBe(
      'We conduct transactions in various currencies, which creates exposure to fluctuations in foreign currency exchange rates relative to the U.S. Dollar.',
    );
    // LIKE's own characters are text: "%" matches only a "%".
    expect((await sessions(h, ada.token, '?q=%25')).body.sessions).toEqual([]);
    expect((await sessions(h, bob.token, '?q=suppliers')).body.sessions).toEqual([]);
  });

  it('answers one session with its messages and chat state', async () => {
    const res = await h.call('GET', `/ml/ask-needl/sessions/${currency}`, { token: ada.token });
    expect(res.status).toBe(200);
    expect(res.body.state).toMatchObject({
      searchWithin: 'all',
      currentFeedOrDocumentId: 'home',
      attachments: [],
      attachmentsFeedId: null,
      settings: {},
      metadata: { type: 'all' },
    });
    const [message] = res.body.state.messages;
    expect(res.body.state.messages).toHaveLength(1);
    expect(message).toMatchObject({
      id: messageId,
      prompt: CURRENCY,
      mode: 'answer',
      status: 'done',
      error: null,
      feedback: null,
      created_at: '2025-03-03T10:00:00.000Z',
    });
    expect(message.data.message_id).toBe(messageId);
    expect(message.answer).toBe(message.data.generated_answer.answer);
    const web = await h.call('GET', `/ml/ask-needl/sessions/${suppliers}`, { token: ada.token });
    expect(web.body.state).toMatchObject({
      searchWithin: 'feed',
      currentFeedOrDocumentId: 'needl_universe',
    });
    const theirs = await h.call('GET', `/ml/ask-needl/sessions/${currency}`, { token: bob.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(`no such session: ${currency}`);
  });

  it('renames a session and keeps its settings, for its owner only', async () => {
    const path = `/ml/ask-needl/sessions/${currency}`;
    const res = await h.call('PUT', path, {
      token: ada.token,
      body: { title: 'Currency risk', state: { settings: { pro: true } } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Currency risk', state: { settings: { pro: true } } });
    expect((await h.call('GET', path, { token: ada.token })).body.title).toBe('Currency risk');
    const other = await h.call('PUT', path, { token: bob.token, body: { title: 'Mine' } });
    expect(other.status).toBe(404);
    const changes = await changesOf(h, ada.token);
    const renamed = changes.filter(
      (c) => c.entity === 'assistant_session' && c.data.title === 'Currency risk',
    );
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).toMatchObject({ entity_id: currency, op: 'upsert' });
  });

  it('takes feedback on an answer of the own sessions only', async () => {
    const res = await h.call('POST', '/ml/ask-needl/feedback', {
      token: ada.token,
      body: { feedback: 'INCORRECT', message_id: messageId, message: 'Missing the 2024 figures' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const session = await h.call('GET', `/ml/ask-needl/sessions/${currency}`, { token: ada.token });
    expect(session.body.state.messages[0].feedback).toBe('INCORRECT');
    for (const [token, id] of [
      [bob.token, messageId],
      [ada.token, 'no-such-message'],
    ]) {
      const refused = await h.call('POST', '/ml/ask-needl/feedback', {
        token,
        body: { feedback: 'CORRECT', message_id: id },
      });
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe(`no such message: ${id}`);
    }
  });

  it('suggests questions drawn from the documents of all data, a feed and a document', async () => {
    const nike = await documentIdOf(h, NIKE_TITLE);
    const res = await h.call('GET', `/ml/ask-needl/messaging?board_id=home&document_id=${nike}`, {
      token: ada.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.all).toEqual([
      {
        question: 'What does the latest 10-K filing of NIKE Inc. say?',
        icon: 'chart',
      },
      { question: 'What is the latest on monetary policy?', icon: 'news' },
      { question: 'What are the key points of “RBI holds repo rate at 6.50%”?', icon: 'doc' },
      {
        question: 'What does the latest 10-K filing of Western Digital Corp say?',
        icon: 'chart',
      },
    ]);
    expect(res.body.feed).toHaveLength(2);
    expect(res.body.document).toEqual([
      { question: expect.stringMatching(/^What does this document say about \w+/), icon: 'doc' },
      { question: 'What did NIKE Inc. report in this document?', icon: 'chart' },
      { question: `What are the key points of “${NIKE_TITLE}”?`, icon: 'doc' },
    ]);
    // Each suggestion is answered from the user's documents.
    const answered = await ask(h, ada.token, { prompt: res.body.all[0].question });
    expect(answered.done?.answer_quality).not.toBe('GENERATIVE');
    expect(answered.done?.generated_answer.sentences.length).toBeGreaterThan(0);
    const nobody = await newUser(h, 'Nobody');
    expect((await h.call('GET', '/ml/ask-needl/messaging', { token: nobody.token })).body).toEqual({
      all: [],
      feed: [],
      document: [],
    });
    const elsewhere = await h.call('GET', '/ml/ask-needl/messaging?board_id=not-mine', {
      token: ada.token,
    });
    expect(elsewhere.status).toBe(404);
  });

  it('deletes a session with its messages, for its owner only', async () => {
    const path = `/ml/ask-needl/sessions/${suppliers}`;
    expect((await h.call('DELETE', path, { token: bob.token })).status).toBe(404);
    const res = await h.call('DELETE', path, { token: ada.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await h.call('GET', path, { token: ada.token })).status).toBe(404);
    const left = await h.db
      .selectFrom('assistant_messages')
      .select('id')
      .where('session_id', '=', suppliers)
      .execute();
    expect(left).toEqual([]);
    const changes = await changesOf(h, ada.token);
    expect(changes.filter((c) => c.entity_id === suppliers).map((c) => c.op)).toEqual([
      'upsert',
      'upsert',
      'delete',
    ]);
    expect(
      (await sessions(h, ada.token)).body.sessions.map((s: { id: string }) => s.id),
    ).not.toContain(suppliers);
  });
});

describe('the demo workspace', () => {
  it('holds one session answered by the extractive answerer from the demo documents', async () => {
    const h = await createHarness('sqlite');
    try {
      const token = (await h.signInDemo()).id_token;
      const list = (await sessions(h, token)).body.sessions;
      expect(list).toHaveLength(1);
      const res = await h.call('GET', `/ml/ask-needl/sessions/${list[0].id}`, { token });
      const [message] = res.body.state.messages;
      expect(res.body.state.messages).toHaveLength(1);
      expect(list[0].title).toBe(message.prompt);
      expect(message).toMatchObject({ mode: 'answer', status: 'done', error: null });
      const { sentences } = message.data.generated_answer;
      expect(sentences.length).toBeGreaterThan(0);
      for (const s of sentences) {
        expect(s.citations[0].context).toContain(s.sentence);
        expect(message.answer).toContain(`[${s.citations[0].id}]`);
      }
    } finally {
      await h.close();
    }
  });
});
