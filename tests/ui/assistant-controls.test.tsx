import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, preloadAssistant, renderAssistant } from './assistant-chat-fixtures';
import { rateDetail } from './search-fixtures';
import { setViewportWidth } from './shell-fake-workspace';

beforeAll(preloadAssistant, 60_000);
beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  vi.restoreAllMocks();
});

const LOCKED =
  'Search status can only be changed in a new session. Please create a new session to enable or disable Search.';
const WEB_FLAG = { ask_needl_dataset_selection_needl_universe: true };
const ops = (calls: Array<{ op: string; input: unknown }>, op: string) =>
  calls.filter((c) => c.op === op).map((c) => c.input);

describe('suggested questions', () => {
  it('shows 4 all-question and 2 feed-question placeholders while loading, none for documents', async () => {
    await renderAssistant({
      path: '/ask-needl/full',
      handlers: { 'ask.suggestions': () => new Promise(() => {}) },
    });
    const section = await screen.findByRole('region', { name: 'Suggested questions' });
    const all = within(section).getByRole('list', { name: 'About all your data' });
    const feed = within(section).getByRole('list', { name: 'About this feed' });
    expect(within(all).getAllByTestId('suggestion-skeleton')).toHaveLength(4);
    expect(within(feed).getAllByTestId('suggestion-skeleton')).toHaveLength(2);
    expect(within(section).queryByRole('list', { name: 'About this document' })).toBeNull();
    expect(within(section).getAllByTestId('suggestion-skeleton')).toHaveLength(6);
  });

  it('hides the section when they fail to load', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full',
      handlers: {
        'ask.suggestions': () => {
          throw new Error('HTTP 500');
        },
      },
    });
    await waitFor(() => expect(ops(view.calls, 'ask.suggestions')).toEqual([{}]));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Suggested questions' })).toBeNull(),
    );
    expect(await screen.findByPlaceholderText('Ask me anything...')).toBeTruthy();
  });

  it('asks a suggestion when chosen', async () => {
    const view = await renderAssistant({ path: '/ask-needl/full' });
    fireEvent.click(await screen.findByRole('button', { name: /What changed this week\?/ }));
    await waitFor(() =>
      expect(ops(view.calls, 'ask.send')).toMatchObject([{ prompt: 'What changed this week?' }]),
    );
  });

  it('are disabled with "Select a source first." while a feed scope names no feed', async () => {
    await renderAssistant({
      path: '/ask-needl/full',
      chatState: { searchWithin: 'feed', currentFeedOrDocumentId: 'home' },
    });
    expect(await screen.findByText('Select a source first.')).toBeTruthy();
    const card = await screen.findByRole('button', { name: /What changed this week\?/ });
    expect((card as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Your question'), { target: { value: 'Rates?' } });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("are the chosen feed's, and questions ask within it", async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full',
      chatState: { searchWithin: 'feed', currentFeedOrDocumentId: 'b1' },
    });
    await waitFor(() => expect(ops(view.calls, 'ask.suggestions')).toEqual([{ board_id: 'b1' }]));
    expect(screen.queryByText('Select a source first.')).toBeNull();
    fireEvent.change(screen.getByLabelText('Your question'), { target: { value: 'Rates?' } });
    fireEvent.keyDown(screen.getByLabelText('Your question'), { key: 'Enter' });
    await waitFor(() =>
      expect(ops(view.calls, 'ask.send')).toMatchObject([
        { prompt: 'Rates?', scope: { searchWithin: 'feed', currentFeedOrDocumentId: 'b1' } },
      ]),
    );
  });
});

describe('web search', () => {
  it('is offered only with its flag', async () => {
    await renderAssistant({ path: '/ask-needl/full' });
    await screen.findByPlaceholderText('Ask me anything...');
    expect(screen.queryByRole('switch', { name: 'Public corpus' })).toBeNull();
  });

  it('turns on in a new chat, and questions then ask the web', async () => {
    const view = await renderAssistant({ path: '/ask-needl/full', flags: WEB_FLAG });
    fireEvent.click(await screen.findByRole('switch', { name: 'Public corpus' }));
    await waitFor(() => expect(view.chatState().webSearch).toBe(true));
    fireEvent.change(screen.getByLabelText('Your question'), { target: { value: 'Rates?' } });
    fireEvent.keyDown(screen.getByLabelText('Your question'), { key: 'Enter' });
    await waitFor(() =>
      expect(ops(view.calls, 'ask.send')).toMatchObject([
        { scope: { searchWithin: 'all', currentFeedOrDocumentId: 'needl_universe' } },
      ]),
    );
  });

  it('is locked once the session has messages, saying why', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat() },
      flags: WEB_FLAG,
    });
    await screen.findByRole('article', { name: 'Answer' });
    const toggle = screen.getByRole('switch', { name: 'Public corpus' });
    expect(toggle.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(toggle);
    expect(await screen.findByText(LOCKED)).toBeTruthy();
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(ops(view.calls, 'ask.setState')).not.toContainEqual(
      expect.objectContaining({ webSearch: true }),
    );
  });
});

describe('copy', () => {
  it('copies the answer markdown and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderAssistant({ path: '/ask-needl/full?sessionId=s1', chats: { s1: chat() } });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy answer' }));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('Central banks held rates [1].');
  });

  it('falls back to a prompt holding the text when the clipboard refuses', async () => {
    const writeText = vi.fn(() => Promise.reject(new Error('denied')));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const prompt = vi.spyOn(window, 'prompt').mockImplementation(() => null);
    await renderAssistant({ path: '/ask-needl/full?sessionId=s1', chats: { s1: chat() } });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy answer' }));
    await waitFor(() =>
      expect(prompt).toHaveBeenCalledWith(
        'Copy to clipboard: Ctrl+C, Enter',
        'Central banks held rates [1].',
      ),
    );
    expect(screen.queryByText('Copied to clipboard')).toBeNull();
  });
});

describe('the assistant overlay', () => {
  it('shows the chat beside the page, on the last active session', async () => {
    const view = await renderAssistant({
      path: '/feeds/home?overlay-type=ask-needl',
      chats: { s1: chat() },
      chatState: { lastActiveSessionId: 's1' },
    });
    const panel = await screen.findByTestId('overlay');
    const answerView = await within(panel).findByRole('article', { name: 'Answer' });
    expect(answerView.textContent).toContain('Central banks held rates');
    // The placeholder is typed out in turns with the @help hint (a 6.7 s cycle, 2 s of it whole):
    // waited for over a whole cycle, not read at one moment.
    const composer = await within(panel).findByPlaceholderText(
      'Ask follow up...',
      {},
      { timeout: 10_000 },
    );
    expect(composer.tagName).toBe('TEXTAREA');
    const full = within(panel).getByRole('link', { name: 'Full screen' });
    expect(full.getAttribute('href')).toBe('/ask-needl/full?sessionId=s1');
    // Closing the panel stops watching: the worker sends this tab nothing more.
    fireEvent.click(within(panel).getByRole('button', { name: 'Close panel' }));
    await waitFor(() => expect(ops(view.calls, 'ask.unwatch')).toEqual([{ sessionId: 's1' }]));
  });

  it('says it resumed the last chat, and starts a new one in one click (issue 18)', async () => {
    await renderAssistant({
      path: '/feeds/home?overlay-type=ask-needl',
      chats: { s1: chat() },
      chatState: { lastActiveSessionId: 's1' },
    });
    const panel = await screen.findByTestId('overlay');
    await within(panel).findByRole('article', { name: 'Answer' });
    expect(within(panel).getByText(/^Continuing your last chat/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Start a new chat' }));
    await waitFor(() =>
      expect(within(panel).queryByRole('article', { name: 'Answer' })).toBeNull(),
    );
    expect(within(panel).queryByText(/^Continuing your last chat/)).toBeNull();
    // Typed out in turns with the @help hint: waited for over a whole cycle (6.7 s).
    const composer = await within(panel).findByPlaceholderText(
      'Ask me anything...',
      {},
      { timeout: 10_000 },
    );
    expect(composer.tagName).toBe('TEXTAREA');
  });

  it('asks about the document a preview shows, from the preview', async () => {
    const view = await renderAssistant({
      path: '/feeds/home?overlay-type=preview&overlay-source=reuters&overlay-category=rss_news&overlay-deeplink=d1',
      handlers: { 'doc.get': ({ deeplink }) => rateDetail({ deeplink, title: 'Rates story 1' }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Ask about this document' }));
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(view.history.location.search))).toEqual({
        'overlay-type': 'ask-needl',
        'overlay-preview_askneedl': 'd1',
        'overlay-preview_title': 'Rates story 1',
      }),
    );
    const panel = await screen.findByTestId('overlay');
    // It names the document it asks about (issue 18).
    expect((await within(panel).findByText(/^Asking about/)).textContent).toBe(
      'Asking about “Rates story 1”',
    );
    await waitFor(() =>
      expect(view.chatState()).toMatchObject({
        searchWithin: 'document',
        currentFeedOrDocumentId: 'd1',
      }),
    );
    fireEvent.change(within(panel).getByLabelText('Your question'), {
      target: { value: 'What does it say?' },
    });
    fireEvent.keyDown(within(panel).getByLabelText('Your question'), { key: 'Enter' });
    await waitFor(() =>
      expect(ops(view.calls, 'ask.send')).toMatchObject([
        {
          scope: {
            searchWithin: 'document',
            currentFeedOrDocumentId: 'd1',
            document_ids: ['d1'],
          },
        },
      ]),
    );
  });
});
