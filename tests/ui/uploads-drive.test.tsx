import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadRow } from '../../contract/upload-client';
import type { UploadedFile } from '../../contract/uploads';
import { FEED_FLAGS } from './feed-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(cleanup);

const row = (over: Partial<UploadRow>): UploadRow => ({
  id: 'u1',
  name: 'quarterly-results.pdf',
  size: 2048,
  mime_type: 'application/pdf',
  status: 'UPLOADING',
  progress: 40,
  error: null,
  source: 'needldrive',
  key: 'uploads/a',
  feed_id: null,
  deeplink: null,
  started_at: 1,
  ...over,
});

const stored: UploadedFile = {
  id: 'u0',
  name: 'annual.md',
  mime_type: 'text/markdown',
  bucket: 'local',
  key: 'uploads/b',
  status: 'COMPLETED',
  progress: 100,
  size: 1536,
  error: null,
  feed_id: 'feed-1',
  deeplink: 'doc-1',
  source: 'needldrive',
  num_pages: null,
  created_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};

describe('the drive', () => {
  it('shows the upload button, uploaded documents and each file’s progress and status', async () => {
    let rows: UploadRow[] = [row({})];
    const view = await renderShell({
      path: '/feeds/home/drives',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'uploads.list': () => rows,
        'uploads.files': () => [stored],
        'uploads.start': () => ({
          accepted: [],
          errors: ['File big.pdf size exceeds the limit of 50 MB.'],
          duplicates: [],
        }),
      },
    });
    expect(await screen.findByRole('button', { name: 'Upload' })).toBeTruthy();
    // Names cut to 10 characters; sizes in base 1024.
    expect(await screen.findByText('quarterly-…')).toBeTruthy();
    expect(screen.getByText('Uploading 40%')).toBeTruthy();
    expect(screen.getByText('2.0 KB')).toBeTruthy();
    const link = screen.getByText('annual.md').closest('a');
    // The stored document is in the user's drive source (needldrive_{user id}).
    expect(link?.getAttribute('href')).toBe('/preview/needldrive_u1/doc-1');
    expect(screen.getByText('1.5 KB')).toBeTruthy();

    rows = [row({ status: 'UPLOADING_ERROR', error: 'Error uploading files', progress: 0 })];
    view.emit({ type: 'changed', store: 'uploads', keys: ['u1'] });
    expect(await screen.findByText('Error uploading files')).toBeTruthy();
    rows = [row({ status: 'FAILED', error: 'the PDF is encrypted', progress: 100 })];
    view.emit({ type: 'changed', store: 'uploads', keys: ['u1'] });
    expect(await screen.findByText('Processing error: the PDF is encrypted')).toBeTruthy();

    // Dropping files hands them to the worker; its refusals are toasts in the spec's words.
    const drop = screen.getByTestId('uploads-drop');
    fireEvent.dragOver(drop);
    expect(screen.getByText('Drop files here')).toBeTruthy();
    const file = new File(['x'], 'big.pdf', { type: 'application/pdf' });
    fireEvent.drop(drop, { dataTransfer: { files: [file] } });
    expect(await screen.findByText('File big.pdf size exceeds the limit of 50 MB.')).toBeTruthy();
    await waitFor(() => expect(view.calls.filter((c) => c.op === 'uploads.start')).toHaveLength(1));
    const sent = view.calls.find((c) => c.op === 'uploads.start')?.input as {
      files: Array<{ name: string; size: number; type: string }>;
    };
    expect(sent.files.map((f) => [f.name, f.size, f.type])).toEqual([
      ['big.pdf', 1, 'application/pdf'],
    ]);
  });
});
