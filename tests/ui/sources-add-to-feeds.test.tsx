import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SourceBoard } from '../../contract/sources';
import { FEED_FLAGS, createFeed, source } from './feed-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

/** The app loads its screens on demand: loaded first, the tests wait for their own work only. */
beforeAll(() => Promise.all([import('../../src/features/boards/feed-page')]), 60_000);
beforeEach(() => setViewportWidth(1600));
afterEach(cleanup);

const FEEDS: SourceBoard[] = [
  { board_id: 'b1', board_name: 'Banks', selected: false, reads_all: false },
  { board_id: 'b2', board_name: 'Everything', selected: true, reads_all: true },
  { board_id: 'b3', board_name: 'Steel', selected: true, reads_all: false },
];

const checkbox = (name: RegExp) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

async function openSourcePage(setFeeds: (input: { key: string; boards: string[] }) => unknown) {
  const feed = createFeed(2);
  const shell = await renderShell({
    path: '/apps/rss_1',
    session: SIGNED_IN,
    handlers: {
      'flags.get': () => FEED_FLAGS,
      'sources.list': () => [source()],
      'feed.window': feed.window,
      'feed.tabs': feed.tabs,
      'sources.feeds': () => FEEDS,
      'sources.setFeeds': setFeeds as never,
    },
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Add to feeds' }));
  await screen.findByRole('dialog', { name: 'Feeds that read Fixture Feed' });
  return shell;
}

describe("add to feeds on a source's page (002 §4)", () => {
  it('checks a feed at once and sends the whole selection', async () => {
    const { calls } = await openSourcePage(({ boards }) =>
      FEEDS.map((f) => ({ ...f, selected: f.reads_all || boards.includes(f.board_id) })),
    );
    expect(checkbox(/^Banks/).checked).toBe(false);
    expect(checkbox(/^Everything/).disabled).toBe(true);
    fireEvent.click(checkbox(/^Banks/));
    expect(checkbox(/^Banks/).checked).toBe(true);
    await waitFor(() =>
      expect(calls.find((c) => c.op === 'sources.setFeeds')?.input).toEqual({
        key: 'rss_1',
        boards: ['b1', 'b2', 'b3'],
      }),
    );
  });

  it('reverts the selection with a toast when the server refuses', async () => {
    let refuse = (_e: unknown) => {};
    await openSourcePage(
      () =>
        new Promise((_resolve, reject) => {
          refuse = reject;
        }),
    );
    fireEvent.click(checkbox(/^Steel/));
    // Shown at once, before the answer.
    expect(checkbox(/^Steel/).checked).toBe(false);
    refuse(apiError(400, 'bad_request', 'boards: no such feed: b3'));
    expect(await screen.findByText('boards: no such feed: b3')).toBeTruthy();
    expect(checkbox(/^Steel/).checked).toBe(true);
  });

  it('shows the generic toast for a failure without words for the user', async () => {
    await openSourcePage(() => Promise.reject(new Error('socket hang up')));
    fireEvent.click(checkbox(/^Banks/));
    expect(
      await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :('),
    ).toBeTruthy();
    expect(checkbox(/^Banks/).checked).toBe(false);
  });
});
