// Issue 20 (the viewer's figure): GET /doc/{source}/download answers HTTP Range requests, so the
// PDF viewer reads only the byte ranges pdf.js asks for. Scoped as the whole download: the
// owner, or anyone with a live public access key; another user reads no byte.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadProcessed } from './upload-processed';
import { createHarness, type Harness } from './harness';

const PDF = readFileSync(
  join(import.meta.dirname, '..', 'fixtures', 'uploads', 'nike-10k-item1.pdf'),
);

describe('byte ranges of a download', () => {
  let h: Harness;
  let alice: string;
  let bob: string;
  let source: string;
  let deeplink: string;

  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    alice = (await h.signUp('Alice')).session.id_token;
    bob = (await h.signUp('Bob')).session.id_token;
    ({ doc: deeplink } = await uploadProcessed(h, alice, 'nike-10k-item1.pdf', PDF));
    source = (
      await h.db
        .selectFrom('documents')
        .select('source_key')
        .where('id', '=', deeplink)
        .executeTakeFirstOrThrow()
    ).source_key;
  }, 60_000);
  afterAll(() => h.close());

  const get = (range: string | null, token: string | null = alice, key?: string) =>
    h.app.request(
      `/api/doc/${source}/download?deeplink=${deeplink}${key ? `&public_access_key=${key}` : ''}`,
      { headers: { ...(token ? { token } : {}), ...(range ? { range } : {}) } },
    );
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('says it reads ranges, and answers the whole file without one', async () => {
    const res = await get(null);
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(PDF.length));
    expect((await bytes(res)).equals(PDF)).toBe(true);
  });

  it('answers one range with 206 and Content-Range: from-to, from-, and the last n', async () => {
    const first = await get('bytes=0-9');
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-9/${PDF.length}`);
    expect(first.headers.get('content-length')).toBe('10');
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect((await bytes(first)).toString('latin1')).toBe('%PDF-1.4\n%');

    const middle = await get('bytes=1000-1999');
    expect(middle.status).toBe(206);
    expect((await bytes(middle)).equals(PDF.subarray(1000, 2000))).toBe(true);

    const tail = await get(`bytes=${PDF.length - 6}-`);
    expect(tail.headers.get('content-range')).toBe(
      `bytes ${PDF.length - 6}-${PDF.length - 1}/${PDF.length}`,
    );
    expect((await bytes(tail)).toString('latin1')).toBe('%%EOF\n');

    const suffix = await get('bytes=-6');
    expect(suffix.status).toBe(206);
    expect((await bytes(suffix)).toString('latin1')).toBe('%%EOF\n');

    // An end past the file is cut to its last byte.
    const past = await get(`bytes=${PDF.length - 3}-${PDF.length + 500}`);
    expect(past.status).toBe(206);
    expect(past.headers.get('content-range')).toBe(
      `bytes ${PDF.length - 3}-${PDF.length - 1}/${PDF.length}`,
    );
  });

  it('refuses a range past the end with 416, and a malformed one with 400', async () => {
    const beyond = await get(`bytes=${PDF.length}-`);
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${PDF.length}`);
    const bad = await get('bytes=9-2');
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('Range header "bytes=9-2" is malformed');
    expect((await get('bytes=a-b')).status).toBe(400);
    // Another unit is ignored; several ranges get the whole file.
    expect((await get('pages=1-2')).status).toBe(200);
    const several = await get('bytes=0-1,5-6');
    expect(several.status).toBe(200);
    expect((await bytes(several)).length).toBe(PDF.length);
  });

  it('reads ranges for the owner or with a live key only', async () => {
    expect((await get('bytes=0-9', bob)).status).toBe(404);
    expect((await get('bytes=0-9', null)).status).toBe(401);
    const share = await h.call('GET', `/doc/${source}?deeplink=${deeplink}&share=true`, {
      token: alice,
    });
    const key: string = share.body.results[0].public_access_key;
    const shared = await get('bytes=0-3', null, key);
    expect(shared.status).toBe(206);
    expect((await bytes(shared)).toString('latin1')).toBe('%PDF');
    await h.call('DELETE', `/doc/${source}/share?deeplink=${deeplink}`, { token: alice });
    expect((await get('bytes=0-3', null, key)).status).toBe(404);
  });
});
