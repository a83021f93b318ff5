import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  documentIdOf,
  filingsReader,
  lastSteps,
  NIKE_TITLE,
  NOT_FOUND,
  WDC_TITLE,
  writeFilings,
} from './assistant-fixture';
import { draft } from './boards-fixture';
import { addDocs, news } from './documents-helpers';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';
import { usePrivateFeedServer } from './private-feed-server';

const privateFeedUrl = usePrivateFeedServer();

const MEMO = 'Harbour memo on zanzibarite reserves';
const QUANTUM = 'Quantum chip maker raises funds';
const RESERVES = 'How large are the zanzibarite reserves?';

const citedDocuments = (res: Awaited<ReturnType<typeof ask>>) => [
  ...new Set(
    res.done!.generated_answer.sentences.flatMap((s) => s.citations.map((c) => c.title_label)),
  ),
];

describe.each(STORAGE_INDEPENDENT)('what the assistant may read, on %s', (storage) => {
  let h: Harness;
  /** Owns a private source holding the memo; follows the US filings. */
  let ada: { token: string; source: { source_id: string; key: string } };
  /** Follows the same filings, and nothing private. */
  let bob: { token: string };
  let memo: string;
  let wdc: string;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFilings(h);
    // Public, followed by nobody: only the web scope reads it.
    await addDocs(h, 'demo_tech_ledger', [
      news('t1', QUANTUM, 'The quantum chip maker raised funds for a new substrate fab.', 4),
    ]);
    const a = await filingsReader(h, 'Ada Owner');
    const connected = await h.call('POST', '/connect/rss', {
      token: a.token,
      body: { url: privateFeedUrl() },
    });
    expect(connected.status).toBe(201);
    ada = { token: a.token, source: connected.body };
    await addDocs(h, ada.source.source_id, [
      news(
        'p1',
        MEMO,
        'Confidential: the zanzibarite reserves of Harbour Mining are estimated at 40 million tonnes.',
        2,
      ),
    ]);
    bob = await filingsReader(h, 'Bob Other');
    memo = await documentIdOf(h, MEMO);
    wdc = await documentIdOf(h, WDC_TITLE);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("never reads another user's private document, in any scope", async () => {
    const own = await ask(h, ada.token, { prompt: RESERVES });
    expect(own.done?.generated_answer.sentences[0]).toMatchObject({
      sentence:
        'Confidential: the zanzibarite reserves of Harbour Mining are estimated at 40 million tonnes.',
      citations: [{ document_id: memo, title_label: MEMO }],
    });
    const scopes: Array<Record<string, string>> = [
      {},
      { board_id: 'home' },
      { board_id: 'needl_universe' },
    ];
    for (const extra of scopes) {
      const res = await ask(h, bob.token, { prompt: RESERVES, ...extra });
      expect(res.status).toBe(200);
      expect(res.done?.generated_answer.answer, JSON.stringify(extra)).toBe(NOT_FOUND);
      expect(res.done?.retrieved_results.map((r) => r.title_label)).not.toContain(MEMO);
    }
    // Named outright, by document or by source: as if it did not exist.
    const byDocument = await ask(h, bob.token, { prompt: RESERVES, document_id: memo });
    expect(byDocument.status).toBe(404);
    expect(byDocument.body?.message).toBe(`no such document: ${memo}`);
    const bySource = await ask(h, bob.token, { prompt: RESERVES, source: ada.source.key });
    expect(bySource.status).toBe(404);
    expect(bySource.body?.message).toBe(`no such source: ${ada.source.key}`);
  });

  it('reads only the named documents in a document scope', async () => {
    const question = 'How does the company depend on its suppliers?';
    const everywhere = await ask(h, ada.token, { prompt: question });
    expect(citedDocuments(everywhere).sort()).toEqual([NIKE_TITLE, WDC_TITLE]);
    const res = await ask(h, ada.token, { prompt: question, document_id: wdc });
    expect(lastSteps(res.events)[0].text).toBe(
      `Searching “${WDC_TITLE}” for “company depend suppliers”`,
    );
    expect(citedDocuments(res)).toEqual([WDC_TITLE]);
    expect(res.done?.retrieved_results.map((r) => r.document_id)).toEqual([wdc]);
    // Search mode in a document scope: that document, if it holds the words.
    const searched = await ask(h, ada.token, {
      prompt: question,
      document_id: wdc,
      mode: 'search',
    });
    expect(searched.done?.retrieved_results.map((r) => r.document_id)).toEqual([wdc]);
    expect(searched.done?.generated_answer.answer).toBe(
      `Found 1 result for “${question}” in “${WDC_TITLE}”.`,
    );
    const session = await h.call('GET', `/ml/ask-needl/sessions/${res.done!.session_id}`, {
      token: ada.token,
    });
    expect(session.body).toMatchObject({
      type: 'document',
      metadata: { type: 'document', document_id: [wdc] },
      state: { searchWithin: 'document', currentFeedOrDocumentId: wdc },
    });
  });

  it('reads the public corpus in the web scope, and only there', async () => {
    const question = 'What did the quantum chip maker raise funds for?';
    expect((await ask(h, ada.token, { prompt: question })).done?.generated_answer.answer).toBe(
      NOT_FOUND,
    );
    const web = await ask(h, ada.token, { prompt: question, board_id: 'needl_universe' });
    expect(lastSteps(web.events)[0].text).toBe(
      'Searching the public corpus for “quantum chip maker raise funds”',
    );
    expect(citedDocuments(web)).toEqual([QUANTUM]);
    expect(web.done?.generated_answer.answer).toBe(
      'The quantum chip maker raised funds for a new substrate fab. [1]',
    );
  });

  it("reads one of the user's feeds, and answers 404 for anyone else's", async () => {
    const board = await h.call('POST', '/boards/v2', {
      token: ada.token,
      body: draft('Nike', ['NIKE']),
    });
    expect(board.status).toBe(201);
    const id: string = board.body.board_id;
    const res = await ask(h, ada.token, {
      prompt: 'How does the company depend on its suppliers?',
      board_id: id,
    });
    expect(lastSteps(res.events)[0].text).toBe(
      'Searching the feed “Nike” for “company depend suppliers”',
    );
    expect(citedDocuments(res)).toEqual([NIKE_TITLE]);
    const theirs = await ask(h, bob.token, { prompt: 'suppliers', board_id: id });
    expect(theirs.status).toBe(404);
    expect(theirs.body?.message).toBe(`no such feed: ${id}`);
  });

  it('reads one source, and no group (none exist yet)', async () => {
    const res = await ask(h, bob.token, { prompt: 'foreign currency', source: 'demo_us_filings' });
    expect(lastSteps(res.events)[0].text).toBe(
      'Searching the source “US Filings (demo)” for “foreign currency”',
    );
    expect(res.done?.answer_quality).toBe('HIGH');
    const group = await ask(h, bob.token, { prompt: 'foreign currency', channel_id: 'c1' });
    expect(lastSteps(group.events)).toEqual([
      { id: 'search', text: 'Searching your group for “foreign currency”', loading: false },
      { id: 'read', text: 'Read 0 passages from 0 documents', loading: false },
    ]);
    expect(group.done?.generated_answer.answer).toBe(NOT_FOUND);
  });

  it("creates a session under the client's id, and refuses that id to anyone else", async () => {
    const first = await ask(h, ada.token, { prompt: 'foreign currency', session_id: 'chat-ada-1' });
    expect(first.done?.session_id).toBe('chat-ada-1');
    const again = await ask(h, ada.token, { prompt: 'inflation', session_id: 'chat-ada-1' });
    expect(again.done?.session_id).toBe('chat-ada-1');
    const stolen = await ask(h, bob.token, { prompt: 'inflation', session_id: 'chat-ada-1' });
    expect(stolen.status).toBe(404);
    expect(stolen.body?.message).toBe('no such session: chat-ada-1');
    const session = await h.call('GET', '/ml/ask-needl/sessions/chat-ada-1', { token: ada.token });
    expect(session.body.title).toBe('Foreign currency');
    expect(session.body.state.messages.map((m: { prompt: string }) => m.prompt)).toEqual([
      'foreign currency',
      'inflation',
    ]);
  });
});
