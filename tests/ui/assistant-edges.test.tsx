import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answer, bot, chat, preloadAssistant, renderAssistant } from './assistant-chat-fixtures';
import { setViewportWidth } from './shell-fake-workspace';

beforeAll(() => preloadAssistant());
beforeEach(() => setViewportWidth(1600));
afterEach(() => cleanup());

describe('a search-mode answer with no results (issue 18)', () => {
  it('says "No search results found." once', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: {
        s1: chat([
          bot({
            mode: 'search',
            streamingAnswer: 'No search results found.',
            data: answer({
              answer_type: 'SEARCH',
              retrieved_results: [],
              generated_answer: { answer: 'No search results found.', sentences: [] },
            }),
          }),
        ]),
      },
    });
    await screen.findByRole('article', { name: 'Answer' });
    expect(screen.getAllByText('No search results found.')).toHaveLength(1);
  });
});

describe('the public-corpus switch (issue 18)', () => {
  it('is named for what it asks, not "Web search"', async () => {
    await renderAssistant({
      path: '/ask-needl/full',
      flags: { ask_needl_dataset_selection_needl_universe: true },
    });
    expect(await screen.findByRole('switch', { name: 'Public corpus' })).toBeTruthy();
    expect(screen.queryByText('Web search')).toBeNull();
  });
});
