import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionSummary } from '../../contract/assistant';
import { markWords } from '../../src/features/assistant/history/history-search-modal';
import { setViewportWidth } from './shell-fake-workspace';
import { NOW, callsOf, renderPanel, session } from './assistant-history-fixtures';

beforeEach(() => {
  setViewportWidth(1600);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  vi.useRealTimers();
});

const HITS: SessionSummary[] = [
  session(
    's-rates',
    'Rates this week',
    'feed',
    new Date(2024, 2, 14, 9),
    'The central bank held rates at 5.5% in March.',
  ),
  session('s-oil', 'Oil prices', 'all', new Date(2024, 2, 10, 9), 'Brent rose as OPEC cut output.'),
];

/** A search whose answers the test releases by hand. */
function controlledSearch() {
  const pending: Array<{ q: string | undefined; answer: (s: SessionSummary[]) => void }> = [];
  return {
    pending,
    handler: ({ q }: { q?: string }) =>
      q === undefined
        ? { sessions: [], fresh: true }
        : new Promise<{ sessions: SessionSummary[]; fresh: boolean }>((resolve) =>
            pending.push({ q, answer: (sessions) => resolve({ sessions, fresh: true }) }),
          ),
  };
}

async function openSearch(handler: ReturnType<typeof controlledSearch>['handler']) {
  const view = await renderPanel({ sessions: [], handlers: { 'ask.sessions': handler } });
  await screen.findByText('No conversations yet');
  fireEvent.click(screen.getByRole('button', { name: 'Search history' }));
  const dialog = screen.getByRole('dialog', { name: 'Search' });
  const input = within(dialog).getByRole('searchbox', { name: 'Search conversations' });
  return { ...view, dialog, input };
}

const searches = (calls: Array<{ op: string; input: unknown }>) =>
  callsOf(calls, 'ask.sessions').filter((input) => (input as { q?: string }).q !== undefined);

describe('the history search modal', () => {
  it('is a modal titled Search with the input focused', async () => {
    const { dialog, input } = await openSearch(controlledSearch().handler);
    expect(dialog.tagName).toBe('DIALOG');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(within(dialog).getByRole('heading', { name: 'Search' })).toBeTruthy();
    expect(document.activeElement).toBe(input);
  });

  it('searches 500 ms after the last keystroke, not before, with the trimmed text', async () => {
    const search = controlledSearch();
    const view = await openSearch(search.handler);
    vi.useFakeTimers();
    try {
      fireEvent.change(view.input, { target: { value: 'rat' } });
      act(() => vi.advanceTimersByTime(300));
      fireEvent.change(view.input, { target: { value: ' rates ' } });
      act(() => vi.advanceTimersByTime(499));
      expect(searches(view.calls)).toEqual([]);
      act(() => vi.advanceTimersByTime(1));
      expect(searches(view.calls)).toEqual([{ q: 'rates' }]);
      act(() => vi.advanceTimersByTime(2000));
      expect(searches(view.calls)).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows 5 skeleton rows while loading, then the matches with their matched sentence', async () => {
    const search = controlledSearch();
    const view = await openSearch(search.handler);
    fireEvent.change(view.input, { target: { value: 'rates' } });

    const loading = within(view.dialog).getByRole('list', { name: 'Loading results' });
    expect(within(loading).getAllByRole('listitem')).toHaveLength(5);

    await vi.waitFor(() => expect(search.pending).toHaveLength(1));
    await act(async () => search.pending[0].answer(HITS));

    const results = within(view.dialog).getByRole('list', { name: 'Results' });
    const rows = within(results).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Rates this weekFeedThe central bank held rates at 5.5% in March.',
      'Oil pricesBrent rose as OPEC cut output.',
    ]);
    // The searched word is marked in the sentence (and only it).
    expect([...rows[0].querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['rates']);
    expect(within(view.dialog).queryByRole('list', { name: 'Loading results' })).toBeNull();
  });

  it('says "No result found." when nothing matches', async () => {
    const search = controlledSearch();
    const view = await openSearch(search.handler);
    fireEvent.change(view.input, { target: { value: 'zebra' } });
    await vi.waitFor(() => expect(search.pending).toHaveLength(1));
    await act(async () => search.pending[0].answer([]));
    expect(within(view.dialog).getByText('No result found.')).toBeTruthy();
  });

  it('shows only the latest search when an earlier one answers late', async () => {
    const search = controlledSearch();
    const view = await openSearch(search.handler);
    fireEvent.change(view.input, { target: { value: 'oil' } });
    await vi.waitFor(() => expect(search.pending).toHaveLength(1));
    fireEvent.change(view.input, { target: { value: 'rates' } });
    await vi.waitFor(() => expect(search.pending).toHaveLength(2));
    await act(async () => search.pending[1].answer(HITS.slice(0, 1)));
    await act(async () => search.pending[0].answer(HITS.slice(1)));
    const results = within(view.dialog).getByRole('list', { name: 'Results' });
    expect(
      within(results)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Rates this weekFeedThe central bank held rates at 5.5% in March.']);
  });

  it('opens the chosen session and closes', async () => {
    const search = controlledSearch();
    const view = await openSearch(search.handler);
    fireEvent.change(view.input, { target: { value: 'oil' } });
    await vi.waitFor(() => expect(search.pending).toHaveLength(1));
    await act(async () => search.pending[0].answer(HITS));
    fireEvent.click(within(view.dialog).getByRole('button', { name: /^Oil prices/ }));
    expect(view.selected).toEqual(['s-oil']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on Escape', async () => {
    const view = await openSearch(controlledSearch().handler);
    fireEvent.keyDown(view.input, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(view.selected).toEqual([]);
    // Opened again, it starts empty.
    fireEvent.click(screen.getByRole('button', { name: 'Search history' }));
    const input = within(screen.getByRole('dialog', { name: 'Search' })).getByRole('searchbox');
    expect((input as HTMLInputElement).value).toBe('');
  });
});

describe("the matched sentence's marks", () => {
  const marks = (sentence: string, query: string) => {
    const { container } = render(<p>{markWords(sentence, query)}</p>);
    return {
      marked: [...container.querySelectorAll('mark')].map((m) => m.textContent),
      text: container.textContent,
    };
  };

  it('marks the words of the query by stem, as the server matched them', () => {
    const sentence = 'Staff employed 400; it employs many. Employees rose. The Café persons.';
    expect(marks(sentence, 'employ cafe person')).toEqual({
      marked: ['employed', 'employs', 'Café', 'persons'],
      text: sentence,
    });
    expect(marks('Two companies and a company.', 'Companies').marked).toEqual([
      'companies',
      'company',
    ]);
    expect(marks('Nothing here.', '%').marked).toEqual([]);
  });
});
