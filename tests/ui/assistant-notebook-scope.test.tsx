import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askQuery } from '../../worker/domains/assistant/assistant-stream';
import { preloadAssistant, renderAssistant } from './assistant-chat-fixtures';
import { setViewportWidth } from './shell-fake-workspace';

beforeAll(preloadAssistant, 60_000);
beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

const NOTEBOOKS = [
  {
    notebook_id: 'nb-default',
    notebook_name: 'My Notebook',
    notebook_type: 'default' as const,
    notes: 0,
    notebook_created_at: '2025-03-03T10:00:00.000Z',
    notebook_updated_at: '2025-03-03T10:00:00.000Z',
    default: true,
  },
  {
    notebook_id: 'nb-rates',
    notebook_name: 'Rates',
    notebook_type: 'user' as const,
    notes: 2,
    notebook_created_at: '2025-03-03T10:00:00.000Z',
    notebook_updated_at: '2025-03-03T10:00:00.000Z',
    default: false,
  },
];

describe('a notebook as the assistant scope', () => {
  it('offers notebooks and asks within the chosen one', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full',
      handlers: { 'notebooks.list': () => NOTEBOOKS as never },
    });
    fireEvent.change(await screen.findByLabelText('Ask within'), {
      target: { value: 'notebook' },
    });
    const picker = await screen.findByLabelText('Notebook');
    await waitFor(() =>
      expect([...picker.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
        'Choose a notebook…',
        'My Notebook',
        'Rates',
      ]),
    );
    fireEvent.change(picker, { target: { value: 'nb-rates' } });
    expect(view.chatState()).toMatchObject({
      searchWithin: 'notebook',
      currentFeedOrDocumentId: 'nb-rates',
    });
    const input = await screen.findByPlaceholderText('Ask me anything...');
    fireEvent.change(input, { target: { value: 'What did the RBI do?' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() =>
      expect(view.calls.find((c) => c.op === 'ask.send')?.input).toMatchObject({
        prompt: 'What did the RBI do?',
        scope: { notebook_id: 'nb-rates' },
      }),
    );
  });

  it('hides the notebook choice when the notebooks flag is off', async () => {
    await renderAssistant({ path: '/ask-needl/full', flags: { notebooks: false } });
    const within = await screen.findByLabelText('Ask within');
    expect([...within.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'All my data',
      'A feed',
    ]);
  });

  it("sends the notebook as the question's notebook_id", () => {
    const query = askQuery({
      prompt: 'Rates?',
      sessionId: 's1',
      scope: { searchWithin: 'all', currentFeedOrDocumentId: 'home', notebook_id: 'nb-rates' },
      mode: 'answer',
      pro: false,
      timezone: 'UTC',
      variant: 'main',
    });
    expect(query).toMatchObject({ notebook_id: 'nb-rates', board_id: null, document_id: [] });
  });
});
