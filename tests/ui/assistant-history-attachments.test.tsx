import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatAttachment } from '../../contract/assistant-attachments';
import { MessageList } from '../../src/features/assistant/message-list';
import type { ChatView } from '../../src/state/assistant-chat';

// Issue 20: a question shows the files it was sent with, also when its chat is reopened from
// history (the worker gives each kept question its attachments); a question sent without
// files shows none. Before, a question's attachments were never drawn.

afterEach(cleanup);

const FILE: ChatAttachment = {
  id: 'nike-markets.md',
  name: 'nike-markets.md',
  file_type: 'md',
  mime_type: 'text/markdown',
  status: 'COMPLETED',
  progress: 100,
  bucket: null,
  key: 'uploads/k1',
  error: null,
};

const chat: ChatView = {
  sessionId: 's1',
  title: 'Share of revenues',
  metadata: {
    type: 'document',
    board_id: null,
    channel_id: null,
    document_id: [],
    source: null,
    report_id: null,
    attachments_feed_id: 'f1',
  },
  streaming: false,
  messages: [
    { type: 'user', id: 'm1:q', botMessageId: 'm1', prompt: 'First?', attachments: [FILE] },
    { type: 'user', id: 'm2:q', botMessageId: 'm2', prompt: 'Second?', attachments: [] },
  ],
};

describe('a question’s attachments', () => {
  it('are listed under the question they were sent with, and under no other', () => {
    render(<MessageList chat={chat} pending={null} onAsk={() => {}} />);
    const [first, second] = screen.getAllByRole('article', { name: 'Question' });
    const files = within(first).getByRole('list', { name: 'Attached files' });
    expect(
      within(files)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['nike-marke…Completed']);
    expect(within(second).queryByRole('list', { name: 'Attached files' })).toBeNull();
  });
});
