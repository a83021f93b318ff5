import { describe, expect, it } from 'vitest';
import { driveSourceKey } from '../../contract/document-files';
import type { UploadRow } from '../../contract/upload-client';
import { createManualClock } from '../../worker/testing';
import { newUser, setupWorkspaceSuite } from './support';

/**
 * docFile.range (issue 20, the viewer's figure): the worker reads byte ranges of an uploaded
 * file from the real server (a Range request, 206), with the file's size from Content-Range, so
 * the PDF viewer never reads the whole file. Signed out with a live public access key.
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

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('byte ranges of an uploaded file from the worker', () => {
  it('reads the asked bytes and the file’s size, signed in and with a shared key', async () => {
    const clock = createManualClock(Date.now());
    const tab = await suite.workspace({ clock }).tab();
    const session = await tab.api.call('auth.signUp', newUser());
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

    const head = await tab.api.call('docFile.range', { ...doc, start: 0, end: 14 });
    expect(head.size).toBe(68);
    expect(text(head.bytes)).toBe('# Harbour notes');
    // An end past the file: its last bytes.
    const tail = await tab.api.call('docFile.range', { ...doc, start: 52, end: 65_535 });
    expect([tail.size, text(tail.bytes)]).toEqual([68, 'month in a row.\n']);
    await expect(
      tab.api.call('docFile.range', { ...doc, start: 68, end: 100 }),
    ).rejects.toMatchObject({ status: 416 });
    // An end before the start is refused before anything is sent.
    await expect(tab.api.call('docFile.range', { ...doc, start: 9, end: 2 })).rejects.toThrow(
      /end must not be before start/,
    );

    const { public_access_key: key } = await tab.api.call('docFile.share', doc);
    const stranger = await suite.workspace().tab();
    const shared = await stranger.api.call('docFile.range', {
      ...doc,
      public_access_key: key,
      start: 17,
      end: 33,
    });
    expect([shared.size, text(shared.bytes)]).toEqual([68, 'Container volumes']);
  });
});
