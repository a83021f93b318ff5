import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Board } from '../../contract/boards';
import { board } from './boards-fixtures';
import { FEED_FLAGS } from './feed-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(cleanup);

/** The user's feeds as the worker answers them; boards.delete takes one away. */
function createFeeds() {
  const feeds: Board[] = [board('b1', 'Chips'), board('b2', 'Rate watch', { kind: 'ai' })];
  return {
    feeds,
    list: () => [...feeds],
    get: ({ id }: { id: string }) => {
      const found = feeds.find((b) => b.board_id === id);
      if (!found) throw Object.assign(new Error(`no such feed: ${id}`), { status: 404 });
      return found;
    },
    remove: ({ id }: { id: string }) => {
      feeds.splice(
        feeds.findIndex((b) => b.board_id === id),
        1,
      );
    },
  };
}

const deletes = (calls: Array<{ op: string; input: unknown }>) =>
  calls.filter((c) => c.op === 'boards.delete').map((c) => c.input);

describe('deleting a custom feed', () => {
  it('the feed manager deletes a feed after a confirmation, and Cancel keeps it', async () => {
    const feeds = createFeeds();
    const { calls } = await renderShell({
      path: '/settings/feeds/root',
      session: SIGNED_IN,
      handlers: {
        'boards.list': feeds.list,
        'boards.delete': feeds.remove,
      },
    });
    const rows = await screen.findByRole('list', { name: 'Your feeds' });
    expect(within(rows).getAllByRole('listitem')).toHaveLength(2);

    // Asked first; Cancel (which has the focus) keeps the feed.
    fireEvent.click(screen.getByRole('button', { name: 'Delete Chips' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Chips?' });
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.click(cancel);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes(calls)).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Chips' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Chips?' })).getByRole('button', {
        name: 'Delete feed',
      }),
    );
    await waitFor(() => expect(within(rows).getAllByRole('listitem')).toHaveLength(1));
    expect(within(rows).queryByRole('link', { name: 'Chips' })).toBeNull();
    expect(within(rows).getByRole('link', { name: 'Rate watch' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes(calls)).toEqual([{ id: 'b1' }]);
    expect(await screen.findByText('Chips is deleted')).toBeTruthy();
  });

  it("a feed's page deletes it after a confirmation and goes to the home feed", async () => {
    const feeds = createFeeds();
    const { calls, history } = await renderShell({
      path: '/feeds/b2',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'boards.list': feeds.list,
        'boards.get': feeds.get,
        'boards.delete': feeds.remove,
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Rate watch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Rate watch?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete feed' }));

    await waitFor(() => expect(history.location.pathname).toBe('/feeds/home'));
    expect(deletes(calls)).toEqual([{ id: 'b2' }]);
    expect(feeds.feeds.map((b) => b.board_id)).toEqual(['b1']);
  });
});
