import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UploadRow } from '../../contract/upload-client';
import type { UploadConfig } from '../../contract/uploads';
import { chat, preloadAssistant, renderAssistant } from './assistant-chat-fixtures';
import { setViewportWidth } from './shell-fake-workspace';

// Issue 20 item 7: the composer's attachments (001 §2, §4, §5): the attach button and the drop
// area with their disabling rules, each attachment's status from the worker's upload rows,
// sending disabled until every attachment is COMPLETED, the question sent over the attachments
// feed with the attachments emptied, and a failed one taken off.

beforeAll(preloadAssistant, 60_000);
beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

const UPLOAD = { ask_needl_upload: true };
const CONFIG: UploadConfig = {
  file_count_limit: 5,
  file_size_limit: 50,
  file_types: [],
  file_name_suffixes: [],
  allow_folder_upload: false,
  mime_types: {},
};

const row = (over: Partial<UploadRow>): UploadRow => ({
  id: 'a1',
  name: 'harbour-volumes.pdf',
  size: 2048,
  mime_type: 'application/pdf',
  status: 'UPLOADING',
  progress: 40,
  error: null,
  source: 'askneedl',
  key: 'uploads/k1',
  feed_id: null,
  deeplink: null,
  started_at: 1,
  ...over,
});

const ops = (calls: Array<{ op: string; input: unknown }>, op: string) =>
  calls.filter((c) => c.op === op).map((c) => c.input);

/** The assistant with attaching on; `rows` are the worker's upload rows. */
async function renderWithUploads(
  opts: {
    rows?: () => UploadRow[];
    config?: () => Promise<UploadConfig> | UploadConfig;
    path?: string;
    chats?: Parameters<typeof renderAssistant>[0]['chats'];
    chatState?: Parameters<typeof renderAssistant>[0]['chatState'];
    flags?: Record<string, boolean>;
  } = {},
) {
  const started: string[] = [];
  return renderAssistant({
    path: opts.path ?? '/ask-needl/full',
    flags: { ...UPLOAD, ...opts.flags },
    chats: opts.chats,
    chatState: opts.chatState,
    handlers: {
      'uploads.config': opts.config ?? (() => CONFIG),
      // The worker's rows carry the ids the tab gave its files.
      'uploads.list': () => (opts.rows?.() ?? []).map((r, i) => ({ ...r, id: started[i] ?? r.id })),
      'uploads.start': ({ files }) => {
        started.push(...files.map((f) => f.id));
        return { accepted: files.map((f) => f.id), errors: [], duplicates: [] };
      },
      'uploads.dismiss': () => undefined,
      'ask.detach': () => ({ ok: true }),
    },
  });
}

const attachButton = () => screen.findByRole('button', { name: 'Attach' });
const sendButton = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
const pick = (name: string) =>
  fireEvent.change(screen.getByLabelText('Choose files to attach'), {
    target: { files: [new File(['%PDF-1.7'], name, { type: 'application/pdf' })] },
  });

describe('assistant attachments', () => {
  it('shows no attach control without the flag ask_{product}_upload', async () => {
    await renderWithUploads({ flags: { ask_needl_upload: false } });
    await screen.findByPlaceholderText('Ask me anything...');
    expect(screen.queryByRole('button', { name: 'Attach' })).toBeNull();
  });

  it('counts each click on Attach as the askneedl_upload_clicked event', async () => {
    const view = await renderWithUploads({});
    const button = (await attachButton()) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    fireEvent.click(button);
    expect(ops(view.calls, 'analytics.event')).toMatchObject([
      { mp_info: { event_name: 'askneedl_upload_clicked', distinct_id: 'u1' } },
      { mp_info: { event_name: 'askneedl_upload_clicked', distinct_id: 'u1' } },
    ]);
  });

  it('disables the attach button while the upload config loads', async () => {
    let loaded!: (config: UploadConfig) => void;
    await renderWithUploads({ config: () => new Promise((resolve) => (loaded = resolve)) });
    const button = (await attachButton()) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    act(() => loaded(CONFIG));
    await waitFor(() => expect(button.disabled).toBe(false));
  });

  it('uploads an attachment, waits for COMPLETED to send, and asks over its feed', async () => {
    let rows: UploadRow[] = [];
    const view = await renderWithUploads({ rows: () => rows });
    const button = (await attachButton()) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    rows = [row({})];
    pick('harbour-volumes.pdf');
    await waitFor(() =>
      expect(ops(view.calls, 'uploads.start')).toMatchObject([
        { source: 'askneedl', existing: [], files: [{ name: 'harbour-volumes.pdf', size: 8 }] },
      ]),
    );
    // The name cut to 10 characters, the status in the drive's words.
    expect(await screen.findByText('harbour-vo…')).toBeTruthy();
    expect(screen.getByText('Uploading 40%')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Your question'), {
      target: { value: 'How much did volumes rise?' },
    });
    // Not COMPLETED: no sending, and no more attaching.
    expect(sendButton().disabled).toBe(true);
    expect(button.disabled).toBe(true);
    rows = [row({ status: 'PROCESSING', progress: 100, feed_id: 'feed-1' })];
    view.emit({ type: 'changed', store: 'uploads', keys: ['a1'] });
    expect(await screen.findByText('Processing')).toBeTruthy();
    expect(sendButton().disabled).toBe(true);
    rows = [row({ status: 'COMPLETED', progress: 100, feed_id: 'feed-1', deeplink: 'doc-1' })];
    view.emit({ type: 'changed', store: 'uploads', keys: ['a1'] });
    expect(await screen.findByText('Completed')).toBeTruthy();
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    expect(button.disabled).toBe(false);

    fireEvent.click(sendButton());
    await waitFor(() =>
      expect(ops(view.calls, 'ask.send')).toEqual([
        expect.objectContaining({
          prompt: 'How much did volumes rise?',
          scope: {
            searchWithin: 'all',
            currentFeedOrDocumentId: 'home',
            attachments_feed_id: 'feed-1',
          },
          attachments: [
            {
              id: expect.any(String),
              name: 'harbour-volumes.pdf',
              mime_type: 'application/pdf',
              file_type: 'pdf',
              status: 'COMPLETED',
              progress: 100,
              bucket: null,
              key: 'uploads/k1',
              error: null,
            },
          ],
        }),
      ]),
    );
    // Emptied from the composer once sent (001 §4.1).
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull());
  });

  it('shows a FAILED attachment as a processing error that blocks sending until removed', async () => {
    let rows: UploadRow[] = [];
    const view = await renderWithUploads({ rows: () => rows });
    const button = (await attachButton()) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(false));
    rows = [
      row({
        status: 'FAILED',
        progress: 100,
        feed_id: 'feed-1',
        error: 'The PDF is password-protected',
      }),
    ];
    pick('harbour-volumes.pdf');
    expect(await screen.findByText('Processing error: The PDF is password-protected')).toBeTruthy();
    const started = (
      ops(view.calls, 'uploads.start')[0] as { files: Array<{ id: string }> }
    ).files.map((f) => f.id);
    fireEvent.change(screen.getByLabelText('Your question'), { target: { value: 'Volumes?' } });
    expect(sendButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove harbour-volumes.pdf' }));
    await waitFor(() =>
      expect(ops(view.calls, 'ask.detach')).toEqual([
        { feed_id: 'feed-1', key: 'uploads/k1', name: 'harbour-volumes.pdf', id: started[0] },
      ]),
    );
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    expect(ops(view.calls, 'uploads.dismiss')).toEqual([{ ids: [started[0]] }]);
  });

  it('disables the attach button in web-search mode and in a chat with messages but no attachments feed', async () => {
    await renderWithUploads({
      flags: { ask_needl_dataset_selection_needl_universe: true },
      chatState: { webSearch: true },
    });
    const web = (await attachButton()) as HTMLButtonElement;
    await waitFor(() => expect(screen.getByRole('switch')).toBeTruthy());
    expect(web.disabled).toBe(true);
    cleanup();

    await renderWithUploads({ path: '/ask-needl/full?sessionId=s1', chats: { s1: chat() } });
    await screen.findByRole('button', { name: 'Copy answer' });
    expect(((await attachButton()) as HTMLButtonElement).disabled).toBe(true);
    cleanup();

    // A session that began with attachments takes more.
    const attached = chat();
    attached.metadata = {
      ...attached.metadata,
      type: 'document',
      document_id: ['doc-1'],
      attachments_feed_id: 'feed-1',
    };
    await renderWithUploads({ path: '/ask-needl/full?sessionId=s1', chats: { s1: attached } });
    await screen.findByRole('button', { name: 'Copy answer' });
    await waitFor(async () =>
      expect(((await attachButton()) as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it('takes dropped files on a feed ("Drop files here"), never on the home feed', async () => {
    const files = [new File(['# Notes'], 'notes.md', { type: '' })];
    const home = await renderWithUploads();
    await waitFor(async () =>
      expect(((await attachButton()) as HTMLButtonElement).disabled).toBe(false),
    );
    const drop = screen.getByTestId('assistant-drop');
    expect(drop.getAttribute('data-drop')).toBe('off');
    fireEvent.dragOver(drop, { dataTransfer: { types: ['Files'], files } });
    expect(screen.queryByText('Drop files here')).toBeNull();
    fireEvent.drop(drop, { dataTransfer: { types: ['Files'], files } });
    expect(ops(home.calls, 'uploads.start')).toEqual([]);
    cleanup();

    const feed = await renderWithUploads({
      chatState: { searchWithin: 'feed', currentFeedOrDocumentId: 'b1' },
    });
    await waitFor(async () =>
      expect(((await attachButton()) as HTMLButtonElement).disabled).toBe(false),
    );
    const area = screen.getByTestId('assistant-drop');
    expect(area.getAttribute('data-drop')).toBe('on');
    fireEvent.dragOver(area, { dataTransfer: { types: ['Files'], files } });
    expect(screen.getByText('Drop files here')).toBeTruthy();
    fireEvent.drop(area, { dataTransfer: { types: ['Files'], files } });
    await waitFor(() =>
      expect(ops(feed.calls, 'uploads.start')).toMatchObject([
        { source: 'askneedl', files: [{ name: 'notes.md' }] },
      ]),
    );
  });
});
