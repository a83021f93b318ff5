// Issue 20: a chat reopened from history shows the files each question was sent with. The
// worker made every kept question's attachments [] (chatMessagesOf), and kept none of a
// question asked in this tab when it wrote the exchange to the mirror (keptMessages).
import { describe, expect, it } from 'vitest';
import type { Chat, SessionMessage } from '../../contract/assistant';
import type { ChatAttachment } from '../../contract/assistant-attachments';
import { chatMessagesOf, keptMessages } from '../../worker/domains/assistant/assistant-store';

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

const message = (id: string, prompt: string, attachments?: ChatAttachment[]): SessionMessage => ({
  id,
  prompt,
  mode: 'answer',
  answer: 'An answer.',
  data: null,
  status: 'done',
  error: null,
  feedback: null,
  created_at: '2025-03-03T10:00:00.000Z',
  ...(attachments ? { attachments } : {}),
});

describe('attachments of kept questions', () => {
  it('shows the files the server kept with each question', () => {
    const chat = chatMessagesOf([message('m1', 'First?', [FILE]), message('m2', 'Second?')]);
    expect(chat.filter((m) => m.type === 'user').map((m) => [m.prompt, m.attachments])).toEqual([
      ['First?', [FILE]],
      ['Second?', []],
    ]);
  });

  it('keeps the files of a question asked here with its exchange', () => {
    const chat: Chat = {
      sessionId: 's1',
      title: 'First?',
      metadata: {
        type: 'document',
        board_id: null,
        channel_id: null,
        document_id: [],
        source: null,
        report_id: null,
        attachments_feed_id: 'f1',
      },
      messages: chatMessagesOf([message('m1', 'First?', [FILE]), message('m2', 'Second?')]),
      streaming: false,
    };
    const kept = keptMessages(chat, '2025-03-03T10:00:00.000Z');
    expect(kept.map((m) => [m.prompt, m.attachments])).toEqual([
      ['First?', [FILE]],
      ['Second?', undefined],
    ]);
    // Read back as the chat shows it, from the mirror.
    expect(chatMessagesOf(kept)[0]).toMatchObject({ type: 'user', attachments: [FILE] });
  });
});
