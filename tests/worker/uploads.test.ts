import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { UploadRow } from '../../contract/upload-client';
import { createManualClock } from '../../worker/testing';
import { createFaultyFetch, newUser, setupWorkspaceSuite } from './support';

/**
 * Uploads from the worker (issue 20 item 2, client part): the file checks with the spec's
 * texts, init, the transfer with progress, complete, and the one status poll at 5, 10, 20, 40 s
 * waits (the last cut at 120 s waited), against the real server.
 */
const suite = setupWorkspaceSuite({
  ingest: false,
  uploadJobs: false,
  uploads: { fileSizeLimitMb: 1, fileCountLimit: 3 },
});

const MD = '# Harbour notes\n\nContainer volumes rose for a third month in a row.\n';
const file = (id: string, name: string, body: string | Uint8Array<ArrayBuffer>, type = '') => {
  const data = new Blob([body]);
  return { id, name, size: data.size, type, data };
};

const statusOf = (rows: UploadRow[]) =>
  Object.fromEntries(rows.map((r) => [r.name, [r.status, r.progress, r.error]]));

async function waitRows(
  list: () => Promise<UploadRow[]>,
  ok: (rows: UploadRow[]) => boolean,
): Promise<UploadRow[]> {
  for (let i = 0; i < 400; i += 1) {
    const rows = await list();
    if (ok(rows)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`rows never matched: ${JSON.stringify(statusOf(await list()))}`);
}

describe('uploads from the worker', () => {
  it('checks files in the spec order and with its words', async () => {
    const ws = suite.workspace();
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    const big = new Uint8Array(1048576 + 1);
    const result = await tab.api.call('uploads.start', {
      files: [
        file('a', 'model.exe', 'MZ', 'application/x-msdownload'),
        file('b', 'big.pdf', big, 'application/pdf'),
        file('c', 'notes.md', MD),
        file('d', 'notes.md', MD),
      ],
    });
    expect(result).toEqual({
      accepted: ['c'],
      errors: [
        'File model.exe type: application/x-msdownload not allowed.',
        'File big.pdf size exceeds the limit of 1 MB.',
      ],
      duplicates: ['d'],
    });
    const many = await tab.api.call('uploads.start', {
      files: ['1', '2', '3', '4'].map((n) => file(`m${n}`, `m${n}.txt`, n)),
    });
    expect(many).toEqual({
      accepted: [],
      errors: ['You can only upload 3 files at a time.'],
      duplicates: [],
    });
  });

  it('uploads, shows progress and statuses, and polls until COMPLETED', async () => {
    const clock = createManualClock(Date.now());
    const faulty = createFaultyFetch();
    const ws = suite.workspace({ clock, fetch: faulty.fetch });
    const tab = await ws.tab();
    const other = await ws.tab('second');
    await tab.api.call('auth.signUp', newUser());

    const started = await tab.api.call('uploads.start', { files: [file('n1', 'notes.md', MD)] });
    expect(started).toEqual({ accepted: ['n1'], errors: [], duplicates: [] });
    // The other tab sees the same file reach PROCESSING (the bytes sent, complete confirmed).
    const processing = await waitRows(
      () => other.api.call('uploads.list', {}),
      (rows) => rows[0]?.status === 'PROCESSING',
    );
    expect(processing).toHaveLength(1);
    expect(processing[0]).toMatchObject({
      id: 'n1',
      name: 'notes.md',
      mime_type: 'text/markdown',
      progress: 100,
      error: null,
      source: 'needldrive',
    });
    expect(processing[0].feed_id).toEqual(expect.any(String));
    expect(faulty.state.sent.filter((s) => s.includes('/upload'))).toEqual([
      'GET /api/upload/config',
      'POST /api/upload/init',
      expect.stringMatching(/^PUT \/api\/upload\/file\//),
      'POST /api/upload/complete',
    ]);
    // Tabs heard the row change, named by its key.
    expect(
      other.events.some(
        (e) => e.type === 'changed' && e.store === 'uploads' && e.keys?.includes('n1'),
      ),
    ).toBe(true);

    expect(await suite.env.server.uploads.runDue()).toBeGreaterThanOrEqual(1);
    await clock.advance(5000);
    const done = await waitRows(
      () => tab.api.call('uploads.list', {}),
      (rows) => rows[0]?.status === 'COMPLETED',
    );
    expect(done[0].deeplink).toEqual(expect.any(String));
    const polls = faulty.state.sent.filter((s) => s.startsWith('GET /api/upload/status'));
    expect(polls).toEqual(['GET /api/upload/status']);
    // Every file settled: no further poll.
    await clock.advance(200_000);
    expect(faulty.state.sent.filter((s) => s.startsWith('GET /api/upload/status'))).toHaveLength(1);

    // A second file added to the same uploads feed: PUT complete with action add.
    const feedId = processing[0].feed_id as string;
    await tab.api.call('uploads.start', {
      files: [file('n2', 'more.txt', 'More words about the harbour.')],
      feed_id: feedId,
    });
    const added = await waitRows(
      () => tab.api.call('uploads.list', {}),
      (rows) => rows.find((r) => r.id === 'n2')?.status === 'PROCESSING',
    );
    expect(added.find((r) => r.id === 'n2')?.feed_id).toBe(feedId);
    expect(faulty.state.sent.filter((s) => s.endsWith('/upload/complete'))).toEqual([
      'POST /api/upload/complete',
      'PUT /api/upload/complete',
    ]);
  });

  it('polls once for every tab at 5, 15, 35, 75 and 120 s, then stops', async () => {
    const clock = createManualClock(1_000_000);
    const faulty = createFaultyFetch();
    const times: number[] = [];
    faulty.state.rule = (url) => {
      if (new URL(url).pathname === '/api/upload/status') times.push(clock.now() - 1_000_000);
      return null;
    };
    const ws = suite.workspace({ clock, fetch: faulty.fetch });
    const tabs = [await ws.tab('one'), await ws.tab('two'), await ws.tab('three')];
    await tabs[0].api.call('auth.signUp', newUser());
    await tabs[0].api.call('uploads.start', { files: [file('p1', 'a.md', MD)] });
    await tabs[1].api.call('uploads.start', { files: [file('p2', 'b.txt', 'plain words')] });
    await waitRows(
      () => tabs[2].api.call('uploads.list', {}),
      (rows) => rows.length === 2 && rows.every((r) => r.status === 'PROCESSING'),
    );
    // The runner is idle: the files stay PROCESSING, and the poll runs its whole schedule.
    const offset = clock.now() - 1_000_000;
    times.length = 0;
    await clock.advance(300_000);
    expect(times.map((t) => t - offset)).toEqual([5_000, 15_000, 35_000, 75_000, 120_000]);
    const rows = await tabs[2].api.call('uploads.list', {});
    expect(rows.map((r) => r.status)).toEqual(['PROCESSING', 'PROCESSING']);
  });

  it('a new worker polls again for files an earlier one left processing', async () => {
    // One browser profile: the same IndexedDB, opened by a second worker after the first.
    const indexedDB = new IDBFactory();
    const first = suite.workspace({ indexedDB });
    const tab = await first.tab();
    await tab.api.call('auth.signUp', newUser());
    await tab.api.call('uploads.start', { files: [file('r1', 'left.md', MD)] });
    await waitRows(
      () => tab.api.call('uploads.list', {}),
      (rows) => rows[0]?.status === 'PROCESSING',
    );
    await first.close();

    const clock = createManualClock(Date.now());
    const faulty = createFaultyFetch();
    const second = suite.workspace({ indexedDB, clock, fetch: faulty.fetch });
    const again = await second.tab();
    expect((await again.api.call('uploads.list', {})).map((r) => r.status)).toEqual(['PROCESSING']);
    expect(await suite.env.server.uploads.runDue()).toBeGreaterThanOrEqual(1);
    await clock.advance(5000);
    const rows = await waitRows(
      () => again.api.call('uploads.list', {}),
      (r) => r[0]?.status === 'COMPLETED',
    );
    expect(rows.map((r) => r.name)).toEqual(['left.md']);
    expect(faulty.state.sent.filter((x) => x.startsWith('GET /api/upload/status'))).toEqual([
      'GET /api/upload/status',
    ]);
  });

  it('says "Error getting upload configs" and "Error uploading files"', async () => {
    const faulty = createFaultyFetch();
    const ws = suite.workspace({ fetch: faulty.fetch });
    const tab = await ws.tab();
    await tab.api.call('auth.signUp', newUser());
    faulty.state.rule = (url) =>
      new URL(url).pathname === '/api/upload/config'
        ? new Response('{"error":"x","message":"down"}', { status: 400 })
        : null;
    const refused = await tab.api.call('uploads.start', { files: [file('e1', 'a.md', MD)] });
    expect(refused).toEqual({
      accepted: [],
      errors: ['Error getting upload configs'],
      duplicates: [],
    });
    expect(statusOf(await tab.api.call('uploads.list', {}))).toEqual({
      'a.md': ['UPLOADING_ERROR', 0, 'Error getting upload configs'],
    });

    await tab.api.call('uploads.dismiss', {});
    faulty.state.rule = (url) =>
      new URL(url).pathname.startsWith('/api/upload/file/')
        ? new Response('{"error":"x","message":"refused"}', { status: 400 })
        : null;
    const since = tab.events.length;
    await tab.api.call('uploads.start', { files: [file('e2', 'b.md', MD)] });
    const rows = await waitRows(
      () => tab.api.call('uploads.list', {}),
      (r) => r[0]?.status === 'UPLOADING_ERROR',
    );
    expect(statusOf(rows)).toEqual({ 'b.md': ['UPLOADING_ERROR', 0, 'Error uploading files'] });
    await tab.waitFor((e) => e.type === 'toast', { since });
    expect(tab.events.slice(since).filter((e) => e.type === 'toast')).toEqual([
      { type: 'toast', kind: 'error', message: 'File(s) upload failed. Please try again.' },
    ]);
  });
});
