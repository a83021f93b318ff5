// Issue 20 item 7: a chat's attachments. A question asked with attachments_feed_id is answered
// over that uploads feed's processed files only (not the user's other uploads); the session
// keeps the feed (attachmentsFeedId, its files as attachments); another user's feed is 404 and
// a feed with nothing processed yet is 400. Real upload calls and the real processing job.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadRunner } from '../../server/uploads';
import { ask } from './assistant-fixture';
import { createHarness, type Harness } from './harness';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uploads');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

const MATERIALS = 'What are the principal materials used in NIKE footwear products?';
const SHARE = 'What share of total revenues did non-U.S. sales account for in fiscal 2023?';
const MATERIALS_SENTENCE =
  'The principal materials used in our footwear products are natural and synthetic rubber';
const SHARE_SENTENCE =
  'For fiscal 2023, non-U.S. NIKE Brand and Converse sales accounted for approximately 57% of total';

describe('assistant attachments', () => {
  let h: Harness;
  let alice: string;
  let bob: string;
  /** Alice's attachments feed (nike-markets.md) and the PDF she uploaded elsewhere. */
  let feed: string;
  let mdDoc: string;
  let pdfDoc: string;

  const run = () =>
    createUploadRunner({
      db: h.db,
      dialect: h.dialect,
      storage: h.files,
      product: 'needl',
      now: () => h.clock.now,
      log: () => undefined,
    }).runDue();

  /** Init and transfer of one file; answers what complete takes. */
  const transfer = async (token: string, name: string, bytes: Buffer) => {
    const init = await h.call('POST', '/upload/init', {
      token,
      body: { source: 'askneedl', files: [{ id: name, name, mime_type: '', size: bytes.length }] },
    });
    expect(init.status).toBe(200);
    const cfg = init.body.upload_configs[0];
    const put = await h.app.request(cfg.upload_link, {
      method: 'PUT',
      headers: cfg.headers,
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    return {
      bucket: cfg.metadata_fields.bucket as string,
      key: cfg.metadata_fields.key as string,
      metadata: { name, mime_type: '', id: name },
    };
  };

  /** A new uploads feed holding one file, processed; answers the feed and the document. */
  const attach = async (token: string, name: string) => {
    const file = await transfer(token, name, fixture(name));
    const done = await h.call('POST', '/upload/complete', {
      token,
      body: { files: [file], source: 'askneedl' },
    });
    expect(done.status).toBe(200);
    await run();
    const status = await h.call('GET', `/upload/status?feed_id=${done.body.feed_id}`, { token });
    expect(status.body.files[0].status).toBe('COMPLETED');
    return { feed: done.body.feed_id as string, doc: status.body.files[0].deeplink as string };
  };

  const citedDocuments = (answer: Awaited<ReturnType<typeof ask>>) =>
    new Set(
      answer.done!.generated_answer!.sentences.flatMap((s) =>
        s.citations.map((c) => c.document_id),
      ),
    );

  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    alice = (await h.signUp('Alice')).session.id_token;
    bob = (await h.signUp('Bob')).session.id_token;
    ({ feed, doc: mdDoc } = await attach(alice, 'nike-markets.md'));
    ({ doc: pdfDoc } = await attach(alice, 'nike-10k-item1.pdf'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('answers over all of the user’s data without attachments (the PDF holds the answer)', async () => {
    const res = await ask(h, alice, { prompt: MATERIALS });
    expect(res.status).toBe(200);
    expect(citedDocuments(res)).toEqual(new Set([pdfDoc]));
  });

  it('answers over the attached files only', async () => {
    const outside = await ask(h, alice, { prompt: MATERIALS, attachments_feed_id: feed });
    expect(outside.status).toBe(200);
    // The materials are in Alice's PDF, which is not attached: nothing of it is cited.
    expect(citedDocuments(outside).has(pdfDoc)).toBe(false);
    expect(outside.done!.generated_answer!.answer).not.toContain(MATERIALS_SENTENCE);

    const inside = await ask(h, alice, {
      prompt: SHARE,
      attachments_feed_id: feed,
      // Another scope named beside the attachments is ignored.
      document_id: pdfDoc,
    });
    expect(inside.status).toBe(200);
    expect(citedDocuments(inside)).toEqual(new Set([mdDoc]));
    expect(inside.done!.generated_answer!.answer).toContain(SHARE_SENTENCE);
    const steps = inside.events.find((e) => e.status === 'INTERMEDIATE_STEP');
    expect(JSON.stringify(steps)).toContain('Searching “nike-markets.md”');
  });

  it('keeps the attachments feed on the session, with its files', async () => {
    const first = await ask(h, alice, { prompt: SHARE, attachments_feed_id: feed });
    const sessionId = first.done!.session_id;
    const session = await h.call('GET', `/ml/ask-needl/sessions/${sessionId}`, { token: alice });
    expect(session.status).toBe(200);
    expect(session.body.type).toBe('document');
    expect(session.body.metadata.attachments_feed_id).toBe(feed);
    expect(session.body.metadata.document_id).toEqual([mdDoc]);
    expect(session.body.state.attachmentsFeedId).toBe(feed);
    expect(session.body.state.attachments).toEqual([
      expect.objectContaining({
        id: 'nike-markets.md',
        name: 'nike-markets.md',
        file_type: 'md',
        mime_type: 'text/markdown',
        status: 'COMPLETED',
        progress: 100,
        error: null,
      }),
    ]);
    // A session without attachments has none.
    const plain = await ask(h, alice, { prompt: SHARE });
    const other = await h.call('GET', `/ml/ask-needl/sessions/${plain.done!.session_id}`, {
      token: alice,
    });
    expect(other.body.state.attachmentsFeedId).toBe(null);
    expect(other.body.state.attachments).toEqual([]);
  });

  it('refuses another user’s attachments as if they did not exist', async () => {
    const res = await ask(h, bob, { prompt: SHARE, attachments_feed_id: feed });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: `no such attachments: ${feed}` });
    const none = await ask(h, bob, { prompt: SHARE, attachments_feed_id: 'no-such-feed' });
    expect(none.status).toBe(404);
  });

  it('refuses attachments none of which is processed yet', async () => {
    const file = await transfer(alice, 'nike-10k-item1.txt', fixture('nike-10k-item1.txt'));
    const done = await h.call('POST', '/upload/complete', {
      token: alice,
      body: { files: [file], source: 'askneedl' },
    });
    expect(done.status).toBe(200);
    const res = await ask(h, alice, { prompt: SHARE, attachments_feed_id: done.body.feed_id });
    expect(res.status).toBe(400);
    expect(res.body!.message).toBe(
      'attachments_feed_id: none of the attached files is processed yet',
    );
  });
});
