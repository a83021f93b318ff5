import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage, type FileStorage } from '../../server/storage';
import { createUploadRunner } from '../../server/uploads';
import { createHarness, REAL_POSTGRES_URL, type Harness } from './harness';
import { startS3rver } from './storage-s3rver';

/**
 * The upload calls end to end, on both file storages (the local disk through the server's own
 * transfer endpoint; S3 through presigned links to s3rver) and both SQL dialects: init,
 * transfer, complete, processing by the durable job, search, share, download, delete, the
 * limits and the pricing gate, and another user reaching none of it.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'uploads');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

type Setup = { db: 'sqlite' | 'pglite' | 'postgres'; files: 'local' | 's3' };
// PostgreSQL is the real server when there is one, PGlite otherwise (STORAGES in harness.ts).
const SETUPS: Setup[] = [
  { db: 'sqlite', files: 'local' },
  { db: REAL_POSTGRES_URL ? 'postgres' : 'pglite', files: 's3' },
];

describe.each(SETUPS)('uploads on $db with $files files', ({ db, files }) => {
  let h: Harness;
  let storage: FileStorage | undefined;
  let s3: Awaited<ReturnType<typeof startS3rver>> | null = null;
  let runner: ReturnType<typeof createUploadRunner>;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    if (files === 's3') {
      s3 = await startS3rver();
      storage = createS3Storage(s3.settings);
    }
    h = await createHarness(db, {
      seed: false,
      storage,
      uploads: {
        fileSizeLimitMb: 1,
        plans: { free: { storageBytes: 2 * 1048576, notebooks: 50 } },
      },
    });
    alice = (await h.signUp('Alice')).session.id_token;
    bob = (await h.signUp('Bob')).session.id_token;
    // A fresh PGlite and an S3 server on a machine shared with other suites.
  }, 120_000);
  afterAll(async () => {
    await h.close();
    await storage?.close();
    await s3?.close();
  });

  /** Init one file, send its bytes to its link, as the worker would; answers its config. */
  const upload = async (token: string, name: string, bytes: Buffer, declare = true) => {
    const id = name;
    const size = declare ? { size: bytes.length } : {};
    const init = await h.call('POST', '/upload/init', {
      token,
      key: `init-${id}-${Math.random()}`,
      body: { source: 'needldrive', files: [{ id, name, mime_type: '', ...size }] },
    });
    expect(init.status).toBe(200);
    const cfg = init.body.upload_configs[0];
    const link: string = cfg.upload_link;
    // A client's idempotency key on the transfer is harmless: the bytes still stream.
    const res = link.startsWith('/api/')
      ? await h.app.request(link, {
          method: 'PUT',
          headers: { ...cfg.headers, 'idempotency-key': `transfer-${id}-${Math.random()}` },
          body: new Uint8Array(bytes),
        })
      : await fetch(link, { method: 'PUT', headers: cfg.headers, body: new Uint8Array(bytes) });
    return { cfg, transfer: res };
  };

  const completeBody = (
    cfg: { metadata_fields: { bucket: string; key: string } },
    name: string,
  ) => ({
    bucket: cfg.metadata_fields.bucket,
    key: cfg.metadata_fields.key,
    metadata: { name, mime_type: '', id: name },
  });

  const run = async () => {
    runner ??= createUploadRunner({
      db: h.db,
      dialect: h.dialect,
      storage: storage ?? (await localStorageOf(h)),
      product: 'needl',
      now: () => h.clock.now,
      log: () => undefined,
    });
    return runner.runDue();
  };

  it('answers the upload config from the server settings', async () => {
    const res = await h.call('GET', '/upload/config', { token: alice });
    expect(res.status).toBe(200);
    expect(res.body.config).toEqual({
      file_count_limit: 10,
      file_size_limit: 1,
      file_types: [
        'application/pdf',
        'application/msword',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'text/plain',
        'text/markdown',
        'application/vnd.ms-powerpoint',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        'application/vnd.ms-excel',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ],
      file_name_suffixes: [],
      allow_folder_upload: false,
      mime_types: {
        'application/pdf': 'pdf',
        'application/msword': 'doc',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
        'text/plain': 'txt',
        'text/markdown': 'md',
        'application/vnd.ms-powerpoint': 'ppt',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
        'application/vnd.ms-excel': 'xls',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
      },
    });
    expect((await h.call('GET', '/upload/config')).status).toBe(401);
  });

  it('uploads, processes, finds, shares, downloads and deletes a file; Bob reaches none of it', async () => {
    const md = fixture('nike-markets.md');
    const { cfg, transfer } = await upload(alice, 'nike-markets.md', md);
    expect(cfg.method).toBe('PUT');
    expect(cfg.metadata_fields.bucket).toBe(files === 's3' ? 'needl-test' : 'local');
    expect(cfg.headers).toEqual({ 'content-type': 'text/markdown' });
    expect(transfer.status).toBe(200);

    // Bob cannot complete Alice's key.
    const stolen = await h.call('POST', '/upload/complete', {
      token: bob,
      body: { files: [completeBody(cfg, 'nike-markets.md')], source: 'needldrive' },
    });
    expect(stolen.status).toBe(404);

    const done = await h.call('POST', '/upload/complete', {
      token: alice,
      key: 'complete-md',
      body: { files: [completeBody(cfg, 'nike-markets.md')], source: 'needldrive' },
    });
    expect(done.status).toBe(200);
    const feedId: string = done.body.feed_id;
    expect(done.body.files).toMatchObject([
      {
        id: 'nike-markets.md',
        name: 'nike-markets.md',
        mime_type: 'text/markdown',
        status: 'PROCESSING',
        progress: 100,
        size: md.length,
        error: null,
        feed_id: feedId,
        deeplink: null,
      },
    ]);
    expect((await h.call('GET', `/upload/status?feed_id=${feedId}`, { token: bob })).status).toBe(
      404,
    );

    expect(await run()).toBe(1);
    const status = await h.call('GET', `/upload/status?feed_id=${feedId}`, { token: alice });
    expect(status.body.done).toBe(true);
    expect(status.body.files[0].status).toBe('COMPLETED');
    const deeplink: string = status.body.files[0].deeplink;
    expect(deeplink).toMatch(/^[A-Za-z0-9_-]{22}$/);

    // Searchable at once, by Alice only.
    const found = await h.call('POST', '/search', {
      token: alice,
      body: { q: 'independent distributors licensees', num_docs: 10 },
    });
    expect(found.status).toBe(200);
    const hit = found.body.results.find((r: { doc_id: string }) => r.doc_id === deeplink);
    expect(hit).toBeDefined();
    const source: string = hit.source;
    const bobSearch = await h.call('POST', '/search', {
      token: bob,
      body: { q: 'independent distributors licensees', num_docs: 10 },
    });
    expect(bobSearch.body.results.map((r: { doc_id: string }) => r.doc_id)).not.toContain(deeplink);

    const preview = await h.call('GET', `/doc/${source}?deeplink=${deeplink}`, { token: alice });
    expect(preview.status).toBe(200);
    expect(preview.body.results[0].title).toBe('NIKE international markets');
    expect(preview.body.results[0].body).toContain('approximately 57% of total');
    expect(
      (await h.call('GET', `/doc/${source}?deeplink=${deeplink}`, { token: bob })).status,
    ).toBe(404);

    // Download: the original bytes with their name.
    const dl = await h.app.request(`/api/doc/${source}/download?deeplink=${deeplink}`, {
      headers: { token: alice },
    });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toBe(
      `attachment; filename="nike-markets.md"; filename*=UTF-8''nike-markets.md`,
    );
    expect(dl.headers.get('content-type')).toBe('text/markdown');
    expect(Buffer.from(await dl.arrayBuffer()).equals(md)).toBe(true);
    const bobDl = await h.app.request(`/api/doc/${source}/download?deeplink=${deeplink}`, {
      headers: { token: bob },
    });
    expect(bobDl.status).toBe(404);
    expect((await h.app.request(`/api/doc/${source}/download?deeplink=${deeplink}`)).status).toBe(
      401,
    );

    // Share: Bob cannot make a key for it; Alice's key opens it signed out until revoked.
    expect(
      (await h.call('GET', `/doc/${source}?deeplink=${deeplink}&share=true`, { token: bob }))
        .status,
    ).toBe(404);
    const share = await h.call('GET', `/doc/${source}?deeplink=${deeplink}&share=true`, {
      token: alice,
    });
    expect(share.status).toBe(200);
    const key: string = share.body.results[0].public_access_key;
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const open = await h.call(
      'GET',
      `/doc/${source}?deeplink=${deeplink}&public_access_key=${key}`,
    );
    expect(open.status).toBe(200);
    expect(open.body.results[0].body).toContain('approximately 57% of total');
    const sharedDl = await h.app.request(
      `/api/doc/${source}/download?deeplink=${deeplink}&public_access_key=${key}`,
    );
    expect(sharedDl.status).toBe(200);
    expect(
      (await h.call('GET', `/doc/${source}?deeplink=${deeplink}&public_access_key=wrong`)).status,
    ).toBe(404);
    expect(
      (await h.call('DELETE', `/doc/${source}/share?deeplink=${deeplink}`, { token: bob })).status,
    ).toBe(404);
    const revoked = await h.call('DELETE', `/doc/${source}/share?deeplink=${deeplink}`, {
      token: alice,
    });
    expect(revoked.status).toBe(200);
    expect(
      (await h.call('GET', `/doc/${source}?deeplink=${deeplink}&public_access_key=${key}`)).status,
    ).toBe(404);

    // Storage use counts the file.
    const used = await h.call('GET', '/user/storage', { token: alice });
    expect(used.body.results).toEqual({
      used_bytes: md.length,
      limit_bytes: 2097152,
      file_count: 1,
      plan: 'free',
    });
    expect((await h.call('GET', '/user/storage', { token: bob })).body.results.used_bytes).toBe(0);

    // Delete: Bob cannot; Alice's removes the file, its search entries and the document.
    expect(
      (await h.call('DELETE', `/doc/${source}?deeplink=${deeplink}`, { token: bob })).status,
    ).toBe(404);
    const del = await h.call('DELETE', `/doc/${source}?deeplink=${deeplink}`, {
      token: alice,
      key: 'delete-md',
    });
    expect(del.status).toBe(200);
    const after = await h.call('POST', '/search', {
      token: alice,
      body: { q: 'independent distributors licensees', num_docs: 10 },
    });
    expect(after.body.results.map((r: { doc_id: string }) => r.doc_id)).not.toContain(deeplink);
    expect(
      (await h.call('GET', `/doc/${source}?deeplink=${deeplink}`, { token: alice })).status,
    ).toBe(404);
    const passages = await h.db
      .selectFrom('document_regions')
      .select('ordinal')
      .where('document_id', '=', deeplink)
      .execute();
    expect(passages).toEqual([]);
    const entries = await h.db
      .selectFrom('feed_entries')
      .select('feed_id')
      .where('document_id', '=', deeplink)
      .execute();
    expect(entries).toEqual([]);
    await waitFor(async () =>
      (await filesOf(h, storage)).head(cfg.metadata_fields.key).then((x) => x === null),
    );
    expect((await h.call('GET', '/user/storage', { token: alice })).body.results.used_bytes).toBe(
      0,
    );
  });

  it('keeps each PDF passage’s page and box for citations', async () => {
    const { cfg } = await upload(alice, 'nike-10k-item1.pdf', fixture('nike-10k-item1.pdf'));
    const done = await h.call('POST', '/upload/complete', {
      token: alice,
      body: { files: [completeBody(cfg, 'nike-10k-item1.pdf')], source: 'needldrive' },
    });
    await run();
    const status = await h.call('GET', `/upload/status?feed_id=${done.body.feed_id}`, {
      token: alice,
    });
    expect(status.body.files[0]).toMatchObject({
      status: 'COMPLETED',
      mime_type: 'application/pdf',
    });
    const deeplink: string = status.body.files[0].deeplink;
    const doc = await h.db
      .selectFrom('documents')
      .select(['plain_text', 'mime_type', 'seq'])
      .where('id', '=', deeplink)
      .executeTakeFirstOrThrow();
    expect(doc.mime_type).toBe('application/pdf');
    const regions = await h.db
      .selectFrom('document_regions')
      .selectAll()
      .where('document_id', '=', deeplink)
      .orderBy('ordinal')
      .execute();
    expect(regions.length).toBeGreaterThan(3);
    // Every region is a real span of the stored text, on a page, with a box inside the page.
    for (const r of regions) {
      expect(doc.plain_text.slice(r.span_start, r.span_end).trim().length).toBeGreaterThan(0);
      expect(r.page).toBeGreaterThanOrEqual(1);
      expect(Number(r.x0)).toBeLessThan(Number(r.x1));
      expect(Number(r.y0)).toBeLessThan(Number(r.y1));
      expect(Number(r.x1)).toBeLessThanOrEqual(Number(r.page_width));
      expect(Number(r.y1)).toBeLessThanOrEqual(Number(r.page_height));
    }
    expect(regions[0].page).toBe(1);
    const placed = await h.db
      .selectFrom('document_passages')
      .select(['id'])
      .where('id', '>=', Number(doc.seq) * 1024)
      .where('id', '<=', Number(doc.seq) * 1024 + 1023)
      .where(sql<boolean>`page is not null and box is not null`)
      .execute();
    expect(placed.length).toBeGreaterThan(0);
  });

  it('ends a renamed executable, an encrypted and a truncated PDF FAILED with a reason', async () => {
    const program = await upload(alice, 'program.pdf', fixture('program.pdf'));
    const names = ['encrypted.pdf', 'truncated.pdf'];
    const cfgs = [];
    for (const name of names) {
      const { cfg, transfer } = await upload(alice, name, fixture(name));
      expect(transfer.status).toBe(200);
      cfgs.push(completeBody(cfg, name));
    }
    if (files === 'local') {
      // The local transfer reads the first bytes: not a type allowed, nothing stored.
      expect(program.transfer.status).toBe(415);
      expect(await program.transfer.json()).toEqual({
        error: 'bad_request',
        message:
          "program.pdf: the file's content is not a PDF, Word, PowerPoint, Excel, text or Markdown document",
      });
    } else {
      // Straight to S3: the job judges it by its content.
      expect(program.transfer.status).toBe(200);
      cfgs.push(completeBody(program.cfg, 'program.pdf'));
    }
    const done = await h.call('POST', '/upload/complete', {
      token: alice,
      body: { files: cfgs, source: 'needldrive' },
    });
    expect(done.status).toBe(200);
    await run();
    const status = await h.call('GET', `/upload/status?feed_id=${done.body.feed_id}`, {
      token: alice,
    });
    const byName = Object.fromEntries(
      status.body.files.map((f: { name: string; status: string; error: string }) => [
        f.name,
        [f.status, f.error],
      ]),
    );
    for (const name of Object.keys(byName)) {
      expect(byName[name][0]).toBe('FAILED');
      expect(byName[name][1]).toMatch(/\w+ \w+/);
    }
    if (files === 's3') {
      expect(byName['program.pdf']).toEqual([
        'FAILED',
        "the file's content is not a PDF, Word, PowerPoint, Excel, text or Markdown document",
      ]);
    }
    expect(status.body.done).toBe(true);
  });

  it('refuses an oversized file with 413, at init and at the transfer', async () => {
    const big = Buffer.alloc(1048576 + 10, 0x61);
    const init = await h.call('POST', '/upload/init', {
      token: alice,
      body: {
        source: 'needldrive',
        files: [{ id: 'big', name: 'big.txt', mime_type: 'text/plain', size: big.length }],
      },
    });
    expect(init.status).toBe(413);
    expect(init.body.message).toBe('File big.txt size exceeds the limit of 1 MB.');
    if (files === 'local') {
      // Declared small, sent big: refused as the excess arrives, nothing kept.
      const small = await h.call('POST', '/upload/init', {
        token: alice,
        body: {
          source: 'needldrive',
          files: [{ id: 'liar', name: 'liar.txt', mime_type: 'text/plain' }],
        },
      });
      const cfg = small.body.upload_configs[0];
      const res = await h.app.request(cfg.upload_link, {
        method: 'PUT',
        headers: cfg.headers,
        body: big,
      });
      expect(res.status).toBe(413);
      expect(await (await filesOf(h, storage)).head(cfg.metadata_fields.key)).toBeNull();
    }
  });

  it('gates uploads past the plan storage with the upsell', async () => {
    const eligible = await h.call('GET', '/stripe/messaging', { token: bob });
    expect(eligible.body.results).toEqual({
      add_to_needldrive: { isEligible: true, message: null },
      add_notebook: { isEligible: true, message: null },
    });
    const fills = [];
    for (const name of ['fill-1.txt', 'fill-2.txt']) {
      const { cfg, transfer } = await upload(bob, name, Buffer.alloc(1_000_000, 0x62));
      expect(transfer.status).toBe(200);
      fills.push(completeBody(cfg, name));
    }
    const done = await h.call('POST', '/upload/complete', {
      token: bob,
      body: { files: fills, source: 'needldrive' },
    });
    expect(done.status).toBe(200);
    const more = await h.call('POST', '/upload/init', {
      token: bob,
      body: {
        source: 'needldrive',
        files: [{ id: 'm', name: 'more.txt', mime_type: 'text/plain', size: 200_000 }],
      },
    });
    expect(more.status).toBe(403);
    expect(more.body.message).toBe(
      'Storage limit reached: Your Free plan includes 2 MB of storage and 1.91 MB is in use. Upgrade your plan or delete files to upload more.',
    );
    const limit = await h.call('GET', '/stripe/limit/storage', { token: bob });
    expect(limit.body.results).toEqual({
      isEligible: true,
      used_bytes: 2_000_000,
      limit_bytes: 2097152,
      remaining_bytes: 97_152,
      plan: 'free',
    });
    // A file that does not fit is refused whole: nothing of it is stored or counted.
    // Not declared at init: refused at the transfer (local) or at complete (S3).
    const over = await upload(bob, 'over.txt', Buffer.alloc(200_000, 0x63), false);
    expect([403, 200]).toContain(over.transfer.status);
    if (over.transfer.status === 200) {
      const refused = await h.call('POST', '/upload/complete', {
        token: bob,
        body: { files: [completeBody(over.cfg, 'over.txt')], source: 'needldrive' },
      });
      expect(refused.status).toBe(403);
    }
    expect(await (await filesOf(h, storage)).head(over.cfg.metadata_fields.key)).toBeNull();
    expect((await h.call('GET', '/user/storage', { token: bob })).body.results.used_bytes).toBe(
      2_000_000,
    );
  });
});

/** The storage the harness's app writes to (its local disk when no storage was given). */
const localStorageOf = async (h: Harness): Promise<FileStorage> => h.files;
const filesOf = async (h: Harness, s: FileStorage | undefined) => s ?? h.files;

const waitFor = async (check: () => Promise<boolean>) => {
  const until = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
