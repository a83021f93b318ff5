// Issue 20: a chat's attachments when its session is reopened from history. The session as read
// carried the feed's files (state.attachments) but its questions none, so a reopened chat showed
// no file on the question they were sent with. Each question now carries the files attached
// for it: those added to the feed after the question before it, up to it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from './assistant-fixture';
import { uploadProcessed } from './upload-processed';
import { createHarness, type Harness } from './harness';

const MD = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'uploads', 'nike-markets.md'));

describe('attachments of a session reopened from history', () => {
  let h: Harness;
  let token: string;
  let feed: string;

  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    token = (await h.signUp('Ada Lovelace')).session.id_token;
    ({ feed } = await uploadProcessed(h, token, 'nike-markets.md', MD, 'askneedl'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('shows the files on the question they were sent with, and on no later one', async () => {
    h.clock.now += 1000;
    const first = await ask(h, token, {
      prompt: 'What share of revenues came from outside the U.S.?',
      attachments_feed_id: feed,
    });
    const sessionId = first.done!.session_id;
    h.clock.now += 1000;
    await ask(h, token, {
      prompt: 'Which markets are the largest?',
      attachments_feed_id: feed,
      session_id: sessionId,
    });
    const session = await h.call('GET', `/ml/ask-needl/sessions/${sessionId}`, { token });
    expect(session.status).toBe(200);
    const messages = session.body.state.messages as Array<{
      prompt: string;
      attachments?: unknown[];
    }>;
    expect(messages.map((m) => [m.prompt, m.attachments])).toEqual([
      [
        'What share of revenues came from outside the U.S.?',
        [
          expect.objectContaining({
            id: 'nike-markets.md',
            name: 'nike-markets.md',
            file_type: 'md',
            status: 'COMPLETED',
          }),
        ],
      ],
      ['Which markets are the largest?', undefined],
    ]);
    expect(session.body.state.attachments).toEqual([
      expect.objectContaining({ id: 'nike-markets.md', status: 'COMPLETED' }),
    ]);
  });
});
