import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionSummary } from '../../contract/assistant';
import { apiError, setViewportWidth } from './shell-fake-workspace';
import { NOW, callsOf, renderPanel, session } from './assistant-history-fixtures';

/** The list's scroll area is 600 px tall (jsdom lays nothing out, so the test says so). */
beforeEach(() => {
  setViewportWidth(1600);
  // Only the clock is fixed: timers (debounce, toasts) run as they do in a browser.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-list') ? 600 : 0;
    },
  });
});
afterEach(() => {
  // Toasts live in react-hot-toast's one store: a test's toasts must not reach the next.
  act(() => toast.remove());
  cleanup();
  vi.useRealTimers();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

const day = (d: number, month = 3, hour = 9) => new Date(2024, month - 1, d, hour);

const SESSIONS: SessionSummary[] = [
  session('s-doc', 'What did the 10-K say about debt', 'document', day(15, 3, 9)),
  session('s-feed', 'Rates this week', 'feed', day(14)),
  session('s-channel', 'Team notes on Apple', 'channel', day(12)),
  session('s-source', 'Reuters on oil', 'source', day(1)),
  session('s-report', 'Credit report Acme', 'report', day(2, 1)),
  session('s-all', 'Everything about inflation', 'all', day(15, 3, 8)),
  session('s-web', 'Web on tariffs', 'web', day(10)),
];

const list = () => screen.findByRole('list', { name: 'Conversations' });
/** What the list shows, row by row: a group heading, or a title with its badge. */
const rowsShown = async () =>
  within(await list())
    .getAllByRole('listitem')
    .map((item) => {
      const heading = within(item).queryByRole('heading');
      if (heading) return `# ${heading.textContent}`;
      const open = within(item).getAllByRole('button')[0];
      return open.textContent;
    });

describe('the history side panel', () => {
  it('shows the entry, Start new chat and the HISTORY heading with its search', async () => {
    const view = await renderPanel({ sessions: SESSIONS });
    const panel = screen.getByRole('complementary', { name: 'Chat history' });
    // With my_data on, the landing route is the whole of the user's data.
    expect(within(panel).getByRole('link', { name: 'Ask Needl' }).getAttribute('href')).toBe(
      '/feeds/home',
    );
    expect(within(panel).getByRole('heading', { name: 'HISTORY' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Search history' })).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Start new chat' }));
    expect(view.newChats()).toBe(1);
  });

  it('groups the sessions by time with a badge by type, and marks the active one', async () => {
    await renderPanel({ sessions: SESSIONS, active: 's-feed' });
    await waitFor(async () =>
      expect(await rowsShown()).toEqual([
        '# Today',
        'What did the 10-K say about debtDoc',
        'Everything about inflation',
        '# Yesterday',
        'Rates this weekFeed',
        '# Last 7 Days',
        'Team notes on AppleFeed',
        'Web on tariffs',
        '# Last 30 Days',
        'Reuters on oilSource',
        '# Older',
        'Credit report AcmeReport',
      ]),
    );
    const active = screen.getByRole('button', { current: true });
    expect(active.textContent).toBe('Rates this weekFeed');
    expect(screen.getAllByRole('button', { current: true })).toHaveLength(1);
  });

  it('opens a session when its row is chosen', async () => {
    const view = await renderPanel({ sessions: SESSIONS });
    fireEvent.click(await screen.findByRole('button', { name: /^Reuters on oil/ }));
    expect(view.selected).toEqual(['s-source']);
  });

  it('says so when there are no conversations yet', async () => {
    await renderPanel({ sessions: [] });
    expect(await screen.findByText('No conversations yet')).toBeTruthy();
    expect(screen.getByText('Ask anything to begin!')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Conversations' })).toBeNull();
  });

  it('is not there when ask_needl_history is off', async () => {
    await renderPanel({ sessions: SESSIONS, flags: { my_data: true } });
    expect(screen.queryByRole('complementary', { name: 'Chat history' })).toBeNull();
    expect(screen.queryByText('HISTORY')).toBeNull();
  });

  it('reads the list again when the worker says assistant_sessions changed', async () => {
    let sessions = SESSIONS.slice(0, 1);
    const view = await renderPanel({ sessions: () => sessions });
    await screen.findByRole('button', { name: /^What did the 10-K/ });
    const reads = callsOf(view.calls, 'ask.sessions').length;

    // Another store's change is not the history's business.
    view.emit({ type: 'changed', store: 'notifications', keys: null });
    sessions = [...SESSIONS.slice(0, 1), session('s-new', 'Fresh question', 'all', day(15, 3, 9))];
    view.emit({ type: 'changed', store: 'assistant_sessions', keys: ['s-new'] });

    expect(await screen.findByRole('button', { name: 'Fresh question' })).toBeTruthy();
    expect(callsOf(view.calls, 'ask.sessions')).toHaveLength(reads + 1);
  });

  it('collapses to its icon and opens again', async () => {
    await renderPanel({ sessions: SESSIONS });
    const panel = screen.getByRole('complementary', { name: 'Chat history' });
    expect(panel.dataset.state).toBe('opened');

    fireEvent.click(within(panel).getByRole('button', { name: 'Collapse history' }));
    expect(panel.dataset.state).toBe('closed');
    // Collapsed: the toggle icon only.
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Open history']);
    expect(within(panel).queryByRole('link')).toBeNull();
    expect(within(panel).queryByText('HISTORY')).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Open history' }));
    expect(panel.dataset.state).toBe('open');
    expect(within(panel).getByRole('button', { name: 'Start new chat' })).toBeTruthy();
    await waitFor(() => expect(panel.dataset.state).toBe('opened'));
    expect(within(panel).getByRole('button', { name: 'Collapse history' })).toBeTruthy();
  });
});

describe('deleting a session', () => {
  it('deletes it, says "Session deleted successfully" and shows the list without it', async () => {
    let sessions = SESSIONS;
    const view = await renderPanel({
      sessions: () => sessions,
      active: 's-doc',
      handlers: {
        'ask.delete': ({ sessionId }) => {
          sessions = sessions.filter((s) => s.id !== sessionId);
          return { ok: true };
        },
      },
    });
    const reads = async () => {
      await screen.findByRole('button', { name: /^Rates this week/ });
      return callsOf(view.calls, 'ask.sessions').length;
    };
    const before = await reads();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Rates this week' }));
    // It asks first (issue 18).
    expect(callsOf(view.calls, 'ask.delete')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm delete Rates this week' }));

    expect(await screen.findByText('Session deleted successfully')).toBeTruthy();
    expect(callsOf(view.calls, 'ask.delete')).toEqual([{ sessionId: 's-feed' }]);
    await waitFor(() => expect(callsOf(view.calls, 'ask.sessions')).toHaveLength(before + 1));
    expect(screen.queryByRole('button', { name: /^Rates this week/ })).toBeNull();
    // Yesterday had only that session: its heading goes too.
    expect(screen.queryByRole('heading', { name: 'Yesterday' })).toBeNull();
    // Another session than the chat's: the chat stays as it is.
    expect(view.newChats()).toBe(0);
  });

  it('clears the chat when the deleted session is the active one', async () => {
    const view = await renderPanel({
      sessions: SESSIONS,
      active: 's-doc',
      handlers: { 'ask.delete': () => ({ ok: true }) },
    });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Delete What did the 10-K say about debt' }),
    );
    fireEvent.click(
      screen.getByRole('button', { name: 'Confirm delete What did the 10-K say about debt' }),
    );
    await screen.findByText('Session deleted successfully');
    expect(view.newChats()).toBe(1);
  });

  it('asks before deleting, and Cancel keeps the session (issue 18)', async () => {
    const view = await renderPanel({
      sessions: SESSIONS,
      handlers: { 'ask.delete': () => ({ ok: true }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Rates this week' }));
    expect(screen.getByRole('group', { name: 'Delete Rates this week?' }).textContent).toContain(
      'Delete this chat?',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: /^Rates this week/ })).toBeTruthy();
    expect(callsOf(view.calls, 'ask.delete')).toEqual([]);
  });

  it('keeps the session and says why when the delete fails', async () => {
    const view = await renderPanel({
      sessions: SESSIONS,
      active: 's-doc',
      handlers: {
        'ask.delete': () => {
          throw apiError(404, 'not_found', 'Session not found');
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Rates this week' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm delete Rates this week' }));
    expect(await screen.findByText('Session not found')).toBeTruthy();
    expect(screen.queryByText('Session deleted successfully')).toBeNull();
    expect(screen.getByRole('button', { name: /^Rates this week/ })).toBeTruthy();
    expect(view.newChats()).toBe(0);
    await act(async () => {});
  });
});
