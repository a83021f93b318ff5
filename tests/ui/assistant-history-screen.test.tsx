import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatState } from '../../contract/assistant';
import { AssistantHistoryScreen } from '../../src/features/assistant/history/history-screen';
import { setViewportWidth } from './shell-fake-workspace';
import { NOW, callsOf, renderWithWorkspace, session } from './assistant-history-fixtures';

beforeEach(() => {
  // A phone: the history is a page of its own there.
  setViewportWidth(390);
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
  act(() => toast.remove());
  cleanup();
  vi.useRealTimers();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

const CHAT_STATE: ChatState = {
  searchWithin: 'all',
  currentFeedOrDocumentId: 'home',
  webSearch: false,
  lastActiveSessionId: 's-1',
  report: { enabled: false, info: null, sources: [] },
};
const SESSIONS = [
  session('s-1', 'Rates this week', 'feed', new Date(2024, 2, 15, 9)),
  session('s-2', 'Oil prices', 'all', new Date(2024, 2, 1, 9)),
];

function renderHistoryRoute(flags?: Record<string, boolean>) {
  return renderWithWorkspace({
    path: '/ask-needl/history',
    flags,
    screen: AssistantHistoryScreen,
    handlers: {
      'ask.sessions': () => ({ sessions: SESSIONS, fresh: true }),
      'ask.state': () => CHAT_STATE,
      'ask.setState': (patch) => ({ ...CHAT_STATE, ...patch }),
      'ask.delete': () => ({ ok: true }),
    },
  });
}

describe('/ask-needl/history', () => {
  it('shows the whole panel, no collapse toggle, the last active session marked', async () => {
    await renderHistoryRoute();
    const panel = screen.getByRole('complementary', { name: 'Chat history' });
    expect(panel.dataset.state).toBe('opened');
    expect(screen.queryByRole('button', { name: 'Collapse history' })).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('button', { current: true }).textContent).toBe('Rates this weekFeed'),
    );
  });

  it('opens a chosen session on the full page, and a new chat there', async () => {
    const view = await renderHistoryRoute();
    fireEvent.click(await screen.findByRole('button', { name: 'Oil prices' }));
    await waitFor(() =>
      expect(view.router.state.location.href).toBe('/ask-needl/full?sessionId=s-2'),
    );

    await act(() => view.router.navigate({ to: '/ask-needl/history' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start new chat' }));
    await waitFor(() => expect(view.router.state.location.href).toBe('/ask-needl/full'));
  });

  it('deleting the active session clears it from the chat state and stays on the page', async () => {
    const view = await renderHistoryRoute();
    await waitFor(() => expect(screen.getByRole('button', { current: true })).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Delete Rates this week' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm delete Rates this week' }));
    await screen.findByText('Session deleted successfully');
    expect(callsOf(view.calls, 'ask.setState')).toEqual([{ lastActiveSessionId: null }]);
    expect(view.router.state.location.pathname).toBe('/ask-needl/history');
  });

  it('says the history is off when ask_needl_history is off', async () => {
    await renderHistoryRoute({ my_data: true });
    expect(screen.getByRole('status').textContent).toBe(
      'The AskNeedl history is not turned on for your account.',
    );
    expect(screen.queryByRole('complementary')).toBeNull();
  });
});
