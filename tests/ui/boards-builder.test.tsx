import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BoardDefinition } from '../../contract/boards';
import { board, card, kw, source } from './boards-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

const SOURCES = [source('s1', 'Reuters', 'reuters'), source('s2', 'SEC filings', 'sec')];
const QUERY = '("chip" OR semiconductor) AND NOT lawsuit';

/** A preview that answers how many keywords it was given, so a test sees which query ran. */
const preview = ({ definition }: { definition: BoardDefinition }) => {
  const n = definition.keywords.include.length;
  return { results: { documents: [card('d1', 'Chip maker expands')], count: n === 0 ? 120 : 3 } };
};

const keywordField = () => screen.getByPlaceholderText('Add a keyword');
const addAs = (type: 'Include' | 'Exclude') =>
  fireEvent.click(
    within(screen.getByRole('radiogroup', { name: 'Add keyword as' })).getByRole('radio', {
      name: type,
    }),
  );
const typeKeyword = (text: string) => fireEvent.change(keywordField(), { target: { value: text } });
const searchOf = (history: { location: { search: string } }) =>
  Object.fromEntries(new URLSearchParams(history.location.search));

describe('create-feed: a custom feed from keywords and sources', () => {
  it('checks keywords as they are typed, keeps each in one list, and saves the feed', async () => {
    let release: (() => void) | null = null;
    const view = await renderShell({
      path: '/custom-feed?type=custom-feed&page=create-feed',
      session: SIGNED_IN,
      handlers: {
        'sources.list': () => SOURCES,
        'boards.preview': preview,
        'boards.create': (draft) =>
          new Promise((resolve) => {
            release = () => resolve(board('b1', draft.board_name));
          }),
      },
    });
    fireEvent.change(await screen.findByLabelText('Feed name'), { target: { value: 'Chips' } });

    typeKeyword('(chip');
    expect(screen.getByText('Invalid keyword. Paranthesis are imbalanced.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add keyword' })).toHaveProperty('disabled', true);
    typeKeyword('chip AND');
    expect(screen.getByText('Invalid keyword. Unused Boolean Operators at ends.')).toBeTruthy();
    typeKeyword('"chip');
    expect(
      screen.getByText('Invalid keyword. Quotes are either imbalanced or not at ends.'),
    ).toBeTruthy();
    typeKeyword(QUERY);
    expect(screen.queryByText(/^Invalid keyword/)).toBeNull();
    fireEvent.keyDown(keywordField(), { key: 'Enter' });
    expect(within(screen.getByRole('list', { name: 'Keywords' })).getByText(QUERY)).toBeTruthy();

    // lawsuit excluded, then included: it leaves the exclude list.
    typeKeyword('lawsuit');
    addAs('Exclude');
    fireEvent.click(screen.getByRole('button', { name: 'Add keyword' }));
    expect(screen.getByRole('button', { name: 'Exclude (1)' })).toBeTruthy();
    typeKeyword('lawsuit');
    addAs('Include');
    fireEvent.click(screen.getByRole('button', { name: 'Add keyword' }));
    expect(screen.getByRole('button', { name: 'Exclude (0)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Include (2)' })).toBeTruthy();
    // Shown: include only; removing both include keywords shows all again.
    fireEvent.click(screen.getByRole('button', { name: 'Include (2)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove keyword lawsuit' }));
    expect(screen.getByRole('button', { name: 'Include (1)' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(screen.getByRole('button', { name: `Remove keyword ${QUERY}` }));
    expect(screen.getByRole('button', { name: 'All (0)' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    typeKeyword(QUERY);
    fireEvent.keyDown(keywordField(), { key: 'Enter' });

    fireEvent.click(await screen.findByLabelText(/Reuters/));
    fireEvent.change(screen.getByLabelText('Duration'), { target: { value: '1w' } });
    expect(screen.getByText('Showing: Last 1 week')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('or type'), { target: { value: '1 w' } });
    expect(screen.getByText('Wrong shorthand')).toBeTruthy();

    // The preview follows the query once it settles.
    expect(await screen.findByText('3 matching documents', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByText('Chip maker expands')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Create feed' }));
    expect(await screen.findByText('Analyzing Your Inputs')).toBeTruthy();
    const created = view.calls.find((c) => c.op === 'boards.create')?.input as {
      board_name: string;
      kind: string;
      definition: BoardDefinition;
    };
    expect(created.board_name).toBe('Chips');
    expect(created.kind).toBe('custom');
    expect(created.definition.keywords).toEqual({ include: [kw(QUERY)], exclude: [] });
    expect(created.definition.sources).toEqual(['s1']);
    expect(created.definition.date_range?.durationOption).toBe('1w');
    release!();
    await waitFor(() => expect(view.history.location.pathname).toBe('/feeds/b1'));
  });

  it('refuses to save without a name, naming the field', async () => {
    const view = await renderShell({
      path: '/custom-feed?type=custom-feed&page=create-feed',
      session: SIGNED_IN,
      handlers: { 'sources.list': () => SOURCES, 'boards.preview': preview },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Create feed' }));
    expect(screen.getByText('Feed name is required')).toBeTruthy();
    expect(view.calls.some((c) => c.op === 'boards.create')).toBe(false);
  });

  it('sets source filters: one name in one mode only', async () => {
    await renderShell({
      path: '/custom-feed?type=custom-feed&page=create-feed',
      session: SIGNED_IN,
      handlers: { 'sources.list': () => SOURCES, 'boards.preview': preview },
    });
    const values = await screen.findByLabelText('Filter values');
    fireEvent.change(values, { target: { value: 'Apple Inc., Tesla' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(screen.getByText('Apple Inc., Tesla')).toBeTruthy();
    fireEvent.click(
      within(screen.getByRole('radiogroup', { name: 'Filter mode' })).getByText('Exclude'),
    );
    fireEvent.change(values, { target: { value: 'Enron' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    const filters = within(screen.getByRole('list', { name: 'Filters' }));
    expect(filters.getAllByRole('listitem')).toHaveLength(1);
    expect(filters.getByText('Enron')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove filter Not Company' }));
    expect(screen.getByText('No filters.')).toBeTruthy();
  });
});

describe('edit-feed and the feed manager', () => {
  it('loads the feed by board-id and saves it with boards.update', async () => {
    const saved = board('b7', 'Rates', {
      definition: {
        sources: ['s2'],
        keywords: { include: [kw('rates')], exclude: [] },
        filters: { filter: [], exclusion_filter: [] },
        date_range: null,
        ai: null,
      },
    });
    const view = await renderShell({
      path: '/custom-feed?type=custom-feed&page=edit-feed&board-id=b7',
      session: SIGNED_IN,
      handlers: {
        'sources.list': () => SOURCES,
        'boards.preview': preview,
        'boards.get': ({ id }) => (id === 'b7' ? saved : Promise.reject(new Error('unknown'))),
        'boards.update': ({ id, draft }) => board(id, draft.board_name),
      },
    });
    const name = await screen.findByLabelText('Feed name');
    expect((name as HTMLInputElement).value).toBe('Rates');
    expect(screen.getByText('rates')).toBeTruthy();
    expect(((await screen.findByLabelText(/SEC filings/)) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(name, { target: { value: 'Interest rates' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save feed' }));
    await waitFor(() => expect(view.history.location.pathname).toBe('/feeds/b7'));
    const update = view.calls.find((c) => c.op === 'boards.update')?.input as {
      id: string;
      draft: { board_name: string };
    };
    expect(update.id).toBe('b7');
    expect(update.draft.board_name).toBe('Interest rates');
  });

  it('lists hidden feeds too, and enables, duplicates and edits them', async () => {
    const feeds = [
      board('b1', 'Chips', { isNew: true }),
      board('b2', 'Old rates', { enabled: false, kind: 'ai' }),
    ];
    const view = await renderShell({
      path: '/settings/feeds/root',
      session: SIGNED_IN,
      handlers: {
        'boards.list': () => feeds,
        'boards.enable': ({ id, enabled }) => {
          const f = feeds.find((b) => b.board_id === id)!;
          f.enabled = enabled;
          return f;
        },
        'boards.duplicate': ({ id }) => board(`${id}-copy`, 'Chips copy'),
      },
    });
    expect(await screen.findByRole('link', { name: 'Chips' })).toBeTruthy();
    expect(view.calls.find((c) => c.op === 'boards.list')?.input).toEqual({ hidden: true });
    expect(screen.getByText('New')).toBeTruthy();
    expect(screen.getByText('Disabled')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Enable Old rates' }));
    expect(await screen.findByRole('button', { name: 'Disable Old rates' })).toBeTruthy();
    expect(view.calls.find((c) => c.op === 'boards.enable')?.input).toEqual({
      id: 'b2',
      enabled: true,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate Chips' }));
    await waitFor(() =>
      expect(view.calls.find((c) => c.op === 'boards.duplicate')?.input).toEqual({ id: 'b1' }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Edit Old rates' }));
    await waitFor(() =>
      expect(searchOf(view.history)).toEqual({
        'overlay-type': 'custom-feed',
        'overlay-page': 'edit-ai-feed',
        'overlay-board-id': 'b2',
      }),
    );
  });
});
