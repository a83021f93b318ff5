import { describe, expect, it } from 'vitest';
import { driveSourceKey } from '../../contract/document-files';
import type { UploadRow } from '../../contract/upload-client';
import { createManualClock } from '../../worker/testing';
import { createFaultyFetch, newUser, serverView, setupWorkspaceSuite } from './support';

/**
 * An uploaded document's file from the worker (contract/document-files.ts) against the real
 * server: its original bytes, share (read signed out with the key, in another browser) and
 * revoke, the summary polled once for every tab, and delete.
 */
const suite = setupWorkspaceSuite({ ingest: false, uploadJobs: false });

const MD = '# Harbour notes\n\nContainer volumes rose for a third month in a row.\n';

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never matched: ${JSON.stringify(await read())}`);
}

/** A signed-up user with one Markdown file uploaded and processed. */
async function uploaded() {
  const clock = createManualClock(Date.now());
  const faulty = createFaultyFetch();
  const ws = suite.workspace({ clock, fetch: faulty.fetch });
  const tab = await ws.tab();
  const other = await ws.tab('second');
  const user = newUser();
  const session = await tab.api.call('auth.signUp', user);
  if (session.status !== 'signed-in') throw new Error('not signed in');
  const data = new Blob([MD]);
  await tab.api.call('uploads.start', {
    files: [{ id: 'h1', name: 'harbour.md', size: data.size, type: '', data }],
  });
  await until(
    () => tab.api.call('uploads.list', {}),
    (rows: UploadRow[]) => rows[0]?.status === 'PROCESSING',
  );
  await suite.env.server.uploads.runDue();
  await clock.advance(5000);
  const [row] = await until(
    () => tab.api.call('uploads.list', {}),
    (rows: UploadRow[]) => rows[0]?.status === 'COMPLETED',
  );
  const doc = { source: driveSourceKey('needl', session.user.id), deeplink: row.deeplink ?? '' };
  return { clock, faulty, tab, other, doc, user };
}

describe('an uploaded document’s file from the worker', () => {
  it('reads the original, shares it signed out, and refuses the link once revoked', async () => {
    const { tab, doc } = await uploaded();
    expect(await (await tab.api.call('docFile.original', doc)).text()).toBe(MD);

    const { public_access_key: key } = await tab.api.call('docFile.share', doc);
    expect(key.length).toBeGreaterThan(20);
    // Another browser, never signed in: the public ops answer with the key.
    const stranger = await suite.workspace().tab();
    const shared = await stranger.api.call('docFile.shared', { ...doc, public_access_key: key });
    expect(shared.deeplink).toBe(doc.deeplink);
    expect(shared.body).toContain('Container volumes rose for a third month in a row.');
    const bytes = await stranger.api.call('docFile.original', { ...doc, public_access_key: key });
    expect(await bytes.text()).toBe(MD);

    await tab.api.call('docFile.revokeShare', doc);
    await expect(
      stranger.api.call('docFile.shared', { ...doc, public_access_key: key }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      stranger.api.call('docFile.original', { ...doc, public_access_key: key }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('summarises with one poll for every tab, then deletes the document', async () => {
    const { clock, faulty, tab, other, doc, user } = await uploaded();
    expect(await other.api.call('docFile.summaryStatus', { deeplink: doc.deeplink })).toEqual({
      deeplink: doc.deeplink,
      status: null,
      summary_pdf: null,
      error: null,
    });
    const asked = await tab.api.call('docFile.summarise', { deeplink: doc.deeplink });
    expect(asked.status).toBe('PENDING');
    // Both tabs show it as the worker keeps it; neither asks the server itself.
    const statusCalls = () =>
      faulty.state.sent.filter((s) => s.startsWith('GET /api/save_summary/status')).length;
    const before = statusCalls();
    expect(await other.api.call('docFile.summaryStatus', { deeplink: doc.deeplink })).toEqual(
      asked,
    );
    expect(statusCalls()).toBe(before);
    // The server writes it in the background; once it has, the worker's 5 s poll brings it.
    const outside = await serverView(suite.env.baseUrl, user.email, user.password);
    await until(
      () => outside.get(`/save_summary/status?deeplink=${doc.deeplink}`),
      (s) => (s as { status: string }).status === 'SUCCESS',
    );
    await clock.advance(5000);
    const done = await until(
      () => other.api.call('docFile.summaryStatus', { deeplink: doc.deeplink }),
      (s) => s.status === 'SUCCESS',
    );
    expect(done.summary_pdf).toMatch(/^\/api\/save_summary\/pdf\/[\w-]+\?key=/);
    expect(statusCalls() - before).toBe(1);
    expect(
      other.events.some(
        (e) => e.type === 'changed' && e.store === 'summaries' && e.keys?.includes(doc.deeplink),
      ),
    ).toBe(true);
    // Done: the copy is read from the mirror, the server is not asked again, nor polled.
    await tab.api.call('docFile.summaryStatus', { deeplink: doc.deeplink });
    await clock.advance(200_000);
    expect(statusCalls() - before).toBe(1);

    await tab.api.call('docFile.delete', doc);
    await expect(tab.api.call('docFile.original', doc)).rejects.toMatchObject({ status: 404 });
    expect(
      other.events.some((e) => e.type === 'changed' && e.store === 'uploads' && e.keys === null),
    ).toBe(true);
    expect(await tab.api.call('uploads.files', {})).toEqual([]);
  });
});
