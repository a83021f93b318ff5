import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AiPicks, BoardDefinition } from '../../contract/boards';
import { board, card, kw, source, suggestion } from './boards-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

const searchOf = (history: { location: { search: string } }) =>
  Object.fromEntries(new URLSearchParams(history.location.search));
const nameValue = async () =>
  ((await screen.findByLabelText('Feed name')) as HTMLInputElement).value;

const TEMPLATE = suggestion(
  't1',
  'Chip makers',
  { keywords: { include: [kw('semiconductor')], exclude: [kw('lawsuit')] }, sources: ['s1'] },
  { reasons: ['semiconductor: 42 documents in Reuters'], count: 42 },
);
const common = {
  'sources.list': () => [source('s1', 'Reuters', 'reuters')],
  'boards.preview': () => ({ results: { documents: [card('d1', 'Fab news')], count: 42 } }),
  'boards.list': () => [],
};

describe('templates (feed-template-readonly, feed-template-customize)', () => {
  it('opens from the first page in the overlay, shows the template, and customises it', async () => {
    const view = await renderShell({
      path: '/settings/feeds/root?overlay-type=custom-feed',
      session: SIGNED_IN,
      handlers: { ...common, 'boards.suggestions': () => ({ results: [TEMPLATE] }) },
    });
    fireEvent.change(await screen.findByLabelText('Search templates'), {
      target: { value: 'zzz' },
    });
    expect(await screen.findByText('No template matches "zzz".')).toBeTruthy();
    await waitFor(() => expect(searchOf(view.history)['overlay-search-template']).toBe('zzz'));
    fireEvent.change(screen.getByLabelText('Search templates'), { target: { value: 'chip' } });

    fireEvent.click(await screen.findByRole('button', { name: 'View Chip makers' }));
    await waitFor(() =>
      expect(searchOf(view.history)).toEqual({
        'overlay-type': 'custom-feed',
        'overlay-page': 'feed-template-readonly',
        'overlay-template-id': 't1',
        'overlay-search-template': 'chip',
      }),
    );
    expect(await screen.findByText('semiconductor: 42 documents in Reuters')).toBeTruthy();
    expect(screen.getByText('42 documents match now')).toBeTruthy();
    expect(screen.getByText('Reuters')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Customize' }));
    await waitFor(() =>
      expect(searchOf(view.history)['overlay-page']).toBe('feed-template-customize'),
    );
    expect(await nameValue()).toBe('Chip makers');
    expect(screen.getByRole('button', { name: 'Exclude (1)' })).toBeTruthy();
  });
});

describe('AI feeds (select-ai-feed-type, create-ai-feed, review-feed-suggestion)', () => {
  it('proposes a feed from picks, shows the proposal, and saves it as an AI feed', async () => {
    const proposal = suggestion(
      'ai-1',
      'Apple Inc. earnings',
      { keywords: { include: [kw('"Apple Inc." AND earnings')], exclude: [] }, sources: ['s1'] },
      { reasons: ['Apple Inc.: 12 documents in Reuters'], count: 12 },
    );
    const view = await renderShell({
      path: '/custom-feed?type=custom-feed&page=select-ai-feed-type',
      session: SIGNED_IN,
      handlers: {
        ...common,
        'boards.choices': () => ({
          companies: ['Apple Inc.', 'Tesla'],
          topics: ['Semiconductors'],
          attributes: ['Earnings'],
        }),
        'boards.aiSmarts': (picks) => ({
          ...proposal,
          definition: { ...proposal.definition, ai: picks as AiPicks },
        }),
        'boards.create': (draft) => board('b9', draft.board_name, { kind: 'ai' }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /From companies, topics/ }));
    const propose = await screen.findByRole('button', { name: 'Propose a feed' });
    expect(propose).toHaveProperty('disabled', true);
    fireEvent.click(await screen.findByRole('button', { name: 'Apple Inc.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Earnings' }));
    expect(screen.getByRole('button', { name: 'Apple Inc.' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(propose);

    await waitFor(() =>
      expect(searchOf(view.history)).toEqual({
        type: 'custom-feed',
        page: 'review-feed-suggestion',
        'suggestion-ids': 'ai-1',
      }),
    );
    expect(view.calls.find((c) => c.op === 'boards.aiSmarts')?.input).toEqual({
      companies: ['Apple Inc.'],
      topics: [],
      attributes: ['Earnings'],
    });
    expect(await nameValue()).toBe('Apple Inc. earnings');
    expect(screen.getByText('Apple Inc.: 12 documents in Reuters')).toBeTruthy();
    expect(screen.getByText('"Apple Inc." AND earnings')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Create feed' }));
    await waitFor(() => expect(view.history.location.pathname).toBe('/feeds/b9'));
    const created = view.calls.find((c) => c.op === 'boards.create')?.input as {
      kind: string;
      definition: BoardDefinition;
    };
    expect(created.kind).toBe('ai');
    expect(created.definition.ai).toEqual({
      companies: ['Apple Inc.'],
      topics: [],
      attributes: ['Earnings'],
    });
    expect(created.definition.sources).toEqual(['s1']);
  });

  it('reviews several suggested feeds as one', async () => {
    const view = await renderShell({
      path: '/custom-feed?type=custom-feed&page=feed-suggestion',
      session: SIGNED_IN,
      handlers: {
        ...common,
        'boards.suggestions': () => ({
          results: [
            suggestion('a', 'Chips', { keywords: { include: [kw('chip')], exclude: [] } }),
            suggestion('b', 'Fabs', { keywords: { include: [kw('fab')], exclude: [] } }),
          ],
        }),
      },
    });
    fireEvent.click(await screen.findByLabelText(/Chips/));
    fireEvent.click(screen.getByLabelText(/Fabs/));
    fireEvent.click(screen.getByRole('button', { name: 'Review 2 as one feed' }));
    await waitFor(() => expect(searchOf(view.history)['suggestion-ids']).toBe('a,b'));
    expect(await nameValue()).toBe('Chips & Fabs');
    expect(screen.getByRole('button', { name: 'Include (2)' })).toBeTruthy();
  });

  it('says so when a proposal is gone', async () => {
    await renderShell({
      path: '/custom-feed?type=custom-feed&page=review-feed-suggestion&suggestion-ids=nope',
      session: SIGNED_IN,
      handlers: { ...common, 'boards.suggestions': () => ({ results: [] }) },
    });
    expect(
      await screen.findByText('This proposal is no longer available. Make a new one.'),
    ).toBeTruthy();
  });

  it('refuses a builder address with a page it does not have', async () => {
    await renderShell({
      path: '/custom-feed?type=custom-feed&page=nope',
      session: SIGNED_IN,
      handlers: common,
    });
    expect(
      await screen.findByText('This address does not open a page of the feed builder.'),
    ).toBeTruthy();
    expect(screen.getByText('page is not a custom-feed page')).toBeTruthy();
  });
});
