import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultFlagValue, knownFlags } from '../../contract/feature-flags';
import { preloadAssistant, renderAssistant } from './assistant-chat-fixtures';
import { setViewportWidth } from './shell-fake-workspace';

afterEach(() => cleanup());
beforeAll(() => preloadAssistant());

/** The server's default flags (every known flag on but pricing and WhatsApp verification). */
const DEFAULT_FLAGS = Object.fromEntries(
  knownFlags('needl').map((name) => [name, defaultFlagValue(name) === 'on']),
);

/** The links of the main navigation and the top bar, by name and address. */
function entryLinks(): Array<{ name: string; href: string }> {
  const nav = screen.getByRole('navigation', { name: 'Main navigation' });
  const header = document.querySelector<HTMLElement>('header.top-bar');
  if (!header) throw new Error('the top bar is missing');
  return [...within(nav).getAllByRole('link'), ...within(header).getAllByRole('link')].map(
    (link) => ({ name: link.textContent ?? '', href: link.getAttribute('href') ?? '' }),
  );
}

describe('every navigation entry leads somewhere (issue 18)', () => {
  it.each([1600, 900])(
    'at %i px no visible entry opens "Not available yet"',
    async (width) => {
      setViewportWidth(width);
      const { shell, history } = await renderAssistant({
        path: '/feeds/home/rss_news',
        flags: DEFAULT_FLAGS,
      });
      await screen.findByRole('heading', { level: 1, name: 'My Data' });
      if (width < 1600) fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
      const entries = entryLinks();
      expect(entries.map((entry) => entry.name)).toEqual([
        'My Data',
        'Search',
        'AskNeedl',
        'New feed',
        'Feed Manager',
        'Notebooks',
        'Bookmarks',
        'Tags',
        'Add source',
        'Browse sources',
        'Ingestion status',
        'Needl',
        'Notifications',
        'Settings',
      ]);

      for (const entry of entries) {
        await act(() => shell.router.navigate({ href: '/feeds/home/rss_news' }));
        if (width < 1600 && screen.queryByRole('button', { name: 'Open navigation' }))
          fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
        const link = screen.getAllByRole('link', { name: entry.name })[0];
        fireEvent.click(link);
        const target = entry.href === '/' ? '/feeds/home/rss_news' : entry.href;
        await waitFor(() => expect(history.location.pathname).toBe(target));
        await waitFor(() => expect(shell.router.state.status).toBe('idle'));
        expect(screen.queryByText('Not available yet'), entry.name).toBeNull();
        expect(screen.queryByText(/There is no screen at/), entry.name).toBeNull();
      }
      // Ten screens in a row: more than one test's usual time on a busy machine.
    },
    30_000,
  );

  it('/ask-needl opens the assistant, with the navigation beside it', async () => {
    setViewportWidth(1600);
    await renderAssistant({ path: '/ask-needl', flags: DEFAULT_FLAGS });
    expect(await screen.findByLabelText('Your question')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(screen.queryByText('Not available yet')).toBeNull();
  });
});
