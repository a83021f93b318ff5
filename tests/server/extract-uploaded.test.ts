// Issue 20 items 4 and 6 on a user's uploaded documents, through the real upload calls and
// processing job: an answer citing an uploaded PDF with the box of the cited sentence on its
// page; /ml/table-extraction; summaries (/save_summary/v2, config, status), the summary PDF the
// server writes, the notification it creates; and another user reaching none of it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocument } from '../../server/extract';
import { writePdf } from '../../server/summaries/pdf-writer';
import { iso } from '../../server/time';
import { ask } from './assistant-fixture';
import { uploadProcessed } from './upload-processed';
import { createHarness, REAL_POSTGRES_URL, type Harness } from './harness';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uploads');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** A one-page PDF with a table of real figures (NIKE, Inc. fiscal 2023 10-K, revenues by segment). */
const TABLE_PDF = Buffer.from(
  writePdf({
    blocks: [
      { text: 'NIKE Brand revenues by segment (in millions)', bold: true },
      { text: 'The table lists the revenues of three of the geographic operating segments.' },
      { text: '', cells: ['Segment', 'Fiscal 2023', 'Fiscal 2022'], bold: true },
      { text: '', cells: ['North America', '$ 21,608', '$ 18,353'] },
      { text: '', cells: ['Greater China', '7,248', '7,547'] },
      { text: '', cells: ['Asia Pacific & Latin America', '6,431', '5,955'] },
      { text: 'Figures as reported in the annual report.' },
    ],
  }),
);

const waitFor = async (check: () => Promise<boolean>) => {
  const until = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const BACKENDS = ['sqlite', ...(REAL_POSTGRES_URL ? ['postgres' as const] : [])] as const;

describe.each(BACKENDS)('tables and summaries on %s', (backend) => {
  let h: Harness;
  let alice: string;
  let bob: string;
  const deeplinks: Record<string, string> = {};

  /** Uploads and processes a file as the worker and the job would; answers its deeplink. */
  const uploadDone = async (token: string, name: string, bytes: Buffer) =>
    (await uploadProcessed(h, token, name, bytes)).doc;

  beforeAll(async () => {
    h = await createHarness(backend, { seed: false });
    alice = (await h.signUp('Alice')).session.id_token;
    bob = (await h.signUp('Bob')).session.id_token;
    deeplinks.tables = await uploadDone(alice, 'segments.pdf', TABLE_PDF);
    deeplinks.nike = await uploadDone(alice, 'nike-10k-item1.pdf', fixture('nike-10k-item1.pdf'));
    deeplinks.md = await uploadDone(alice, 'nike-markets.md', fixture('nike-markets.md'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('cites an uploaded PDF down to the box of the sentence on its page', async () => {
    const res = await ask(h, alice, {
      prompt: 'What are the principal materials used in NIKE footwear products?',
      document_id: deeplinks.nike,
    });
    expect(res.status).toBe(200);
    const citations = res.done!.generated_answer!.sentences.flatMap((s) => s.citations);
    const cited = citations.find((c) =>
      c.context.includes(
        'The principal materials used in our footwear products are natural and synthetic rubber',
      ),
    );
    expect(cited).toBeDefined();
    const hl = cited!.document_highlight!;
    expect(hl.page_number).toBe(6);
    expect([hl.width, hl.height]).toEqual([612, 792]);
    // A rectangle's corners clockwise from the top-left, within the page's text area (64 pt margins).
    const [tl, tr, br, bl] = hl.coordinates;
    expect(tr!.y).toBe(tl!.y);
    expect(bl!.x).toBe(tl!.x);
    expect(br).toEqual({ x: tr!.x, y: bl!.y });
    expect(tl!.x).toBe(64);
    expect(tl!.y).toBeGreaterThanOrEqual(60);
    expect(br!.x).toBeLessThanOrEqual(548);
    expect(br!.y).toBeLessThanOrEqual(792 - 60);
    expect(br!.y).toBeGreaterThan(tl!.y);
  });

  it("reads a PDF page's table as rows of cells", async () => {
    const res = await h.call('POST', '/ml/table-extraction', {
      token: alice,
      body: { deeplink: deeplinks.tables, page_number: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({
      deeplink: deeplinks.tables,
      page_number: 1,
      num_pages: 1,
      page_width: 612,
      page_height: 792,
    });
    expect(res.body.results.tables.map((t: { rows: string[][] }) => t.rows)).toEqual([
      [
        ['Segment', 'Fiscal 2023', 'Fiscal 2022'],
        ['North America', '$ 21,608', '$ 18,353'],
        ['Greater China', '7,248', '7,547'],
        ['Asia Pacific & Latin America', '6,431', '5,955'],
      ],
    ]);
    // The table sits below the heading and the sentence, in points from the top-left.
    const [x0, y0, x1, y1] = res.body.results.tables[0].box;
    expect(x0).toBe(64);
    expect(y0).toBeGreaterThan(90);
    expect(y1).toBeLessThan(200);
    expect(x1).toBeGreaterThan(300);
    // Prose pages have no tables.
    const prose = await h.call('POST', '/ml/table-extraction', {
      token: alice,
      body: { deeplink: deeplinks.nike, page_number: 2 },
    });
    expect(prose.body.results.tables).toEqual([]);
  });

  it('refuses other pages, other types, bad bodies and other users', async () => {
    const past = await h.call('POST', '/ml/table-extraction', {
      token: alice,
      body: { deeplink: deeplinks.nike, page_number: 7 },
    });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe('page_number must be at most 6 (the document has 6 pages)');
    const md = await h.call('POST', '/ml/table-extraction', {
      token: alice,
      body: { deeplink: deeplinks.md, page_number: 1 },
    });
    expect(md.status).toBe(400);
    expect(md.body.message).toBe(
      'deeplink: table extraction reads PDF documents only; this document is a Markdown file',
    );
    const bad = await h.call('POST', '/ml/table-extraction', {
      token: alice,
      body: { deeplink: deeplinks.nike, page_number: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('page_number must be 1 or more');
    const theirs = await h.call('POST', '/ml/table-extraction', {
      token: bob,
      body: { deeplink: deeplinks.tables, page_number: 1 },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(`no such document among your uploads: ${deeplinks.tables}`);
    expect(
      (
        await h.call('POST', '/ml/table-extraction', {
          body: { deeplink: deeplinks.tables, page_number: 1 },
        })
      ).status,
    ).toBe(401);
  });

  it('answers the summary config', async () => {
    const res = await h.call('GET', '/save_summary/config/v2', { token: alice });
    expect(res.status).toBe(200);
    expect(res.body.filters).toEqual([
      {
        filterName: 'mime_type',
        filterValues: [
          'application/pdf',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'application/vnd.openxmlformats-officedocument.presentationml.presentation',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'text/plain',
          'text/markdown',
        ],
      },
    ]);
    expect(res.body.sources).toHaveLength(1);
    expect(res.body.sources[0]).toMatch(/^needldrive_/);
  });

  it('writes a summary PDF, PENDING to SUCCESS, and notifies the user once', async () => {
    const before = await h.call('GET', `/save_summary/status?deeplink=${deeplinks.nike}`, {
      token: alice,
    });
    expect(before.body).toEqual({
      deeplink: deeplinks.nike,
      status: null,
      summary_pdf: null,
      error: null,
    });

    const asked = await h.call('POST', '/save_summary/v2', {
      token: alice,
      body: { deeplink: deeplinks.nike },
    });
    expect(asked.status).toBe(200);
    expect(['PENDING', 'PROCESSING', 'SUCCESS']).toContain(asked.body.status);

    let status: { status: string; summary_pdf: string } = { status: '', summary_pdf: '' };
    await waitFor(async () => {
      status = (
        await h.call('GET', `/save_summary/status?deeplink=${deeplinks.nike}`, { token: alice })
      ).body;
      return status.status === 'SUCCESS';
    });
    expect(status.summary_pdf).toMatch(
      /^\/api\/save_summary\/pdf\/[0-9a-f-]{36}\?key=[A-Za-z0-9_-]{32}$/,
    );

    // The PDF opens without the token (a new tab), and reads as a summary of the filing.
    const pdf = await h.app.request(status.summary_pdf);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const read = await extractDocument(new Uint8Array(await pdf.arrayBuffer()), {
      name: 'summary.pdf',
    });
    if (!read.ok) throw new Error(read.reason);
    expect(read.title).toBe('Summary: NIKE, Inc. Form 10-K 2023, Item 1');
    const text = read.passages.map((p) => p.text).join('\n');
    expect(text).toContain('Key points');
    // Sentences are quoted with the page they are on.
    expect(text).toMatch(/NIKE[^\n]*\(p\. [1-6]\)/);

    // Asking again answers the same summary; nothing is written twice.
    const again = await h.call('POST', '/save_summary/v2', {
      token: alice,
      body: { deeplink: deeplinks.nike },
    });
    expect(again.body.status).toBe('SUCCESS');
    expect(again.body.summary_pdf).toBe(status.summary_pdf);

    const notes = await h.call('GET', '/notifications', { token: alice });
    const ready = notes.body.results.filter(
      (n: { title: string }) => n.title === 'Summary ready: NIKE, Inc. Form 10-K 2023, Item 1',
    );
    expect(ready).toHaveLength(1);
    expect(ready[0].body).toBe(
      'The summary of "NIKE, Inc. Form 10-K 2023, Item 1" is ready. Open the document and choose View Summary.',
    );
    expect(ready[0].link).toMatch(new RegExp(`^/preview/needldrive_[^/]+/${deeplinks.nike}\\?`));
    expect(notes.body.unread).toBeGreaterThanOrEqual(1);

    // Bob reaches neither the summary nor its PDF without the secret.
    expect(
      (await h.call('GET', `/save_summary/status?deeplink=${deeplinks.nike}`, { token: bob }))
        .status,
    ).toBe(404);
    expect(
      (await h.call('POST', '/save_summary/v2', { token: bob, body: { deeplink: deeplinks.nike } }))
        .status,
    ).toBe(404);
    const guessed = status.summary_pdf.replace(/key=.*/, 'key=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await h.app.request(guessed)).status).toBe(404);
    const bobNotes = await h.call('GET', '/notifications', { token: bob });
    expect(bobNotes.body.results).toEqual([]);
  });

  it('takes up a summary whose server stopped mid-way, once its lease is over', async () => {
    const asked = await h.call('POST', '/save_summary/v2', {
      token: alice,
      body: { deeplink: deeplinks.md },
    });
    expect(asked.status).toBe(200);
    await waitFor(async () => {
      const s = await h.call('GET', `/save_summary/status?deeplink=${deeplinks.md}`, {
        token: alice,
      });
      return s.body.status === 'SUCCESS';
    });
    // As if a server had claimed it and died: PROCESSING under a lease that has run out.
    await h.db
      .updateTable('document_summaries')
      .set({
        status: 'PROCESSING',
        lease_owner: 'dead-server',
        lease_until: iso(h.clock.now - 1000),
        pdf_secret: null,
      })
      .where('document_id', '=', deeplinks.md)
      .execute();
    const stalled = await h.call('GET', `/save_summary/status?deeplink=${deeplinks.md}`, {
      token: alice,
    });
    expect(stalled.body.status).toBe('PROCESSING');
    await waitFor(async () => {
      const s = await h.call('GET', `/save_summary/status?deeplink=${deeplinks.md}`, {
        token: alice,
      });
      return s.body.status === 'SUCCESS';
    });
    const notes = await h.call('GET', '/notifications', { token: alice });
    const ready = notes.body.results.filter(
      (n: { title: string }) => n.title === 'Summary ready: NIKE international markets',
    );
    // One for the first run, one for the run that took it up; the dead server wrote none.
    expect(ready).toHaveLength(2);
  });

  it("deletes a document's summary PDF from storage with the document", async () => {
    const asked = await h.call('POST', '/save_summary/v2', {
      token: alice,
      body: { deeplink: deeplinks.tables },
    });
    expect(asked.status).toBe(200);
    await waitFor(async () => {
      const s = await h.call('GET', `/save_summary/status?deeplink=${deeplinks.tables}`, {
        token: alice,
      });
      return s.body.status === 'SUCCESS';
    });
    const summary = await h.db
      .selectFrom('document_summaries')
      .select('storage_key')
      .where('document_id', '=', deeplinks.tables)
      .executeTakeFirstOrThrow();
    const key = summary.storage_key!;
    expect(await h.files.head(key)).not.toBeNull();
    const source = await h.db
      .selectFrom('documents as d')
      .innerJoin('sources as s', 's.id', 'd.source_id')
      .select('s.key')
      .where('d.id', '=', deeplinks.tables)
      .executeTakeFirstOrThrow();
    const del = await h.call('DELETE', `/doc/${source.key}?deeplink=${deeplinks.tables}`, {
      token: alice,
    });
    expect(del.status).toBe(200);
    await waitFor(async () => (await h.files.head(key)) === null);
    const rows = await h.db
      .selectFrom('document_summaries')
      .select('id')
      .where('document_id', '=', deeplinks.tables)
      .execute();
    expect(rows).toEqual([]);
  });
});
