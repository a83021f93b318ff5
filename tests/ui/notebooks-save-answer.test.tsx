import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Notebook } from '../../contract/notebooks';
import { chat, preloadAssistant, renderAssistant } from './assistant-chat-fixtures';
import { apiError, setViewportWidth } from './shell-fake-workspace';

beforeAll(preloadAssistant, 60_000);
beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

const rates: Notebook = {
  notebook_id: 'nb-1',
  notebook_name: 'Rates',
  notebook_type: 'user',
  notes: 0,
  notebook_created_at: '2024-01-01T00:00:00.000Z',
  notebook_updated_at: '2024-01-01T00:00:00.000Z',
  default: false,
};

const ops = (calls: Array<{ op: string; input: unknown }>, op: string) =>
  calls.filter((c) => c.op === op).map((c) => c.input);

describe('"Save to note" on an answer', () => {
  it('saves the answer with its citation kept as a link to the passage', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat() },
      flags: { notebooks: true },
      handlers: { 'notebooks.list': () => [rates], 'notes.create': () => undefined },
    });
    const answer = await screen.findByRole('article', { name: 'Answer' });
    fireEvent.click(await within(answer).findByRole('button', { name: 'Save to note' }));
    const picker = within(answer).getByRole('dialog', { name: 'Save to note' });
    fireEvent.click(await within(picker).findByRole('button', { name: 'Rates' }));
    expect(ops(view.calls, 'notes.create')).toEqual([
      {
        id: expect.any(String),
        notebook_id: 'nb-1',
        name: 'Central banks held rates.',
        document: [
          {
            type: 'paragraph',
            children: [
              { text: 'Central banks held rates ' },
              {
                text: '[1]',
                href: '/preview/reuters/d1?category_tab=rss_news&access_key=reuters&highlight=14-24',
              },
              { text: '.' },
            ],
          },
          { type: 'heading', children: [{ text: 'Sources' }] },
          {
            type: 'list-item',
            children: [
              {
                text: '[1] Rates story 1',
                href: '/preview/reuters/d1?category_tab=rss_news&access_key=reuters&highlight=14-24',
              },
            ],
          },
        ],
      },
    ]);
    expect(await screen.findByText('Saved to needl Note!')).toBeTruthy();
  });

  it('shows the generic failure when the save is refused', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat() },
      flags: { notebooks: true },
      handlers: {
        'notebooks.list': () => [rates],
        'notes.create': () => {
          throw apiError(500, 'internal', 'boom');
        },
      },
    });
    const answer = await screen.findByRole('article', { name: 'Answer' });
    fireEvent.click(await within(answer).findByRole('button', { name: 'Save to note' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Rates' }));
    expect(
      await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :('),
    ).toBeTruthy();
  });

  it('is not there with the notebooks feature off', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat() },
      flags: { notebooks: false },
    });
    const answer = await screen.findByRole('article', { name: 'Answer' });
    await within(answer).findByRole('button', { name: 'Copy answer' });
    await waitFor(() =>
      expect(within(answer).queryByRole('button', { name: 'Save to note' })).toBeNull(),
    );
  });
});
