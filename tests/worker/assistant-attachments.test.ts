import { describe, expect, it } from 'vitest';
import type { Chat } from '../../contract/assistant';
import { chatAttachmentOf } from '../../contract/assistant-attachments';
import type { UploadRow } from '../../contract/upload-client';
import { createManualClock } from '../../worker/testing';
import { applyUpdates, askEvents, askNet, patchIn } from './assistant-support';
import { newUser, serverView, setupWorkspaceSuite } from './support';

/**
 * A chat's attachments from the worker (issue 20 item 7): attached files go through the upload
 * pipeline (uploads.start into one uploads feed, the one status poll to COMPLETED); the
 * question carries the feed (attachments_feed_id) and is answered over those files only; its
 * user message shows them; a file taken off before sending (ask.detach) leaves the feed.
 */
const suite = setupWorkspaceSuite({ ingest: false, uploadJobs: false });

const MARKETS =
  '# Harbour volumes\n\nContainer volumes at the harbour rose 14% in October, the third monthly rise.\n';
const OTHER =
  '# Ferry notes\n\nThe ferry timetable changed in June; container volumes were not counted.\n';
const file = (id: string, name: string, body: string) => {
  const data = new Blob([body]);
  return { id, name, size: data.size, type: '', data };
};

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never matched: ${JSON.stringify(await read())}`);
}

describe('assistant attachments in the worker', () => {
  it('uploads attachments, asks over them only, and detaches one', async () => {
    const clock = createManualClock(Date.now());
    const net = askNet();
    const ws = suite.workspace({ clock, fetch: net.fetch });
    const tab = await ws.tab('tab-a');
    const user = newUser();
    await tab.api.call('auth.signUp', user);

    // A file uploaded to the drive, not attached: the question must not be answered from it.
    await tab.api.call('uploads.start', { files: [file('d1', 'ferry.md', OTHER)] });
    const attached = await tab.api.call('uploads.start', {
      files: [file('a1', 'harbour.md', MARKETS)],
      source: 'askneedl',
    });
    expect(attached).toEqual({ accepted: ['a1'], errors: [], duplicates: [] });
    const processing = await waitFor(
      () => tab.api.call('uploads.list', {}),
      (rows) => rows.every((r) => r.status === 'PROCESSING'),
    );
    const row = processing.find((r) => r.id === 'a1') as UploadRow;
    const feed = row.feed_id as string;
    expect(feed).toEqual(expect.any(String));
    // The worker's one status poll takes both files to COMPLETED.
    await suite.env.server.uploads.runDue();
    await clock.advance(5000);
    const done = await waitFor(
      () => tab.api.call('uploads.list', {}),
      (rows) => rows.every((r) => r.status === 'COMPLETED'),
    );
    const harbour = done.find((r) => r.id === 'a1') as UploadRow;

    const attachment = chatAttachmentOf(harbour);
    const before = tab.events.length;
    const sent = await tab.api.call('ask.send', {
      prompt: 'How much did container volumes rise in October?',
      scope: { searchWithin: 'all', currentFeedOrDocumentId: 'home', attachments_feed_id: feed },
      attachments: [attachment],
    });
    // The question went with the attachments feed.
    expect(net.asked.at(-1)?.get('attachments_feed_id')).toBe(feed);
    await waitFor(
      async () => tab.events.slice(before),
      (events) => events.some(patchIn(sent.messageId, 'done')),
    );
    const updates = askEvents(tab, before).map((e) => e.update);
    const chat = applyUpdates({} as Chat, updates);
    const question = chat.messages.find((m) => m.type === 'user');
    expect(question).toMatchObject({
      prompt: 'How much did container volumes rise in October?',
      attachments: [
        {
          id: 'a1',
          name: 'harbour.md',
          file_type: 'md',
          mime_type: 'text/markdown',
          status: 'COMPLETED',
        },
      ],
    });
    const bot = chat.messages.find((m) => m.type === 'bot');
    const cited = new Set(
      bot?.type === 'bot'
        ? (bot.data?.generated_answer.sentences ?? []).flatMap((s) =>
            s.citations.map((c) => c.document_id),
          )
        : [],
    );
    expect([...cited]).toEqual([harbour.deeplink]);
    // The chat (its session) keeps asking over the feed.
    expect(chat.metadata).toMatchObject({ type: 'document', attachments_feed_id: feed });

    // A second attachment to the same feed, taken off before it is asked about.
    await tab.api.call('uploads.start', {
      files: [file('a2', 'ferry-2.md', OTHER.replace('June', 'July'))],
      source: 'askneedl',
      feed_id: feed,
    });
    const second = (
      await waitFor(
        () => tab.api.call('uploads.list', {}),
        (rows) => rows.find((r) => r.id === 'a2')?.status === 'PROCESSING',
      )
    ).find((r) => r.id === 'a2') as UploadRow;
    expect(second.feed_id).toBe(feed);
    expect(
      await tab.api.call('ask.detach', {
        feed_id: feed,
        key: second.key as string,
        name: second.name,
        id: second.id,
      }),
    ).toEqual({ ok: true });
    expect(net.state.sent.filter((s) => s.endsWith('/upload/complete'))).toEqual([
      'POST /api/upload/complete',
      'POST /api/upload/complete',
      'PUT /api/upload/complete',
      'PUT /api/upload/complete',
    ]);
    const server = await serverView(suite.env.baseUrl, user.email, user.password);
    const status = (await server.get(`/upload/status?feed_id=${encodeURIComponent(feed)}`)) as {
      files: Array<{ id: string }>;
    };
    expect(status.files.map((f) => f.id)).toEqual(['a1']);
  });
});
