import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Categories } from '../../contract/sources';
import {
  catalogueSections,
  priorityBulk,
  withFollowed,
} from '../../src/features/sources/source-rules';
import { statusFields, statusSummary } from '../../src/features/sources/status-text';
import { FEED_FLAGS, source } from './feed-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(cleanup);

const NOW = new Date('2024-01-01T10:05:00.000Z');

describe('ingestion status in words', () => {
  it('last run, next run, items and last error', () => {
    expect(statusFields(source().status, NOW)).toEqual([
      { label: 'Status', value: 'Up to date' },
      { label: 'Last run', value: '5 min ago' },
      { label: 'Next run', value: 'in 10 min' },
      { label: 'Items', value: '3 documents (3 new)' },
      { label: 'Last error', value: 'None' },
    ]);
  });

  it('says why a source is empty', () => {
    const failing = source({
      status: {
        state: 'error',
        last_run_at: '2024-01-01T10:00:00.000Z',
        next_run_at: null,
        items: 0,
        last_new: 0,
        last_error: 'The feed could not be reached: connection refused',
      },
    });
    expect(statusSummary(failing.status, NOW)).toBe(
      'Last read failed: The feed could not be reached: connection refused',
    );
    const waiting = source({
      status: { ...failing.status, state: 'pending', last_run_at: null, last_error: null },
    });
    expect(statusSummary(waiting.status, NOW)).toBe('Waiting for its first read');
  });
});

describe('bulk priority (002 §5)', () => {
  it('runs for 1 to 50 sources; over 50 it is refused with the spec tooltip', () => {
    expect(priorityBulk(0)).toEqual({ enabled: false, tooltip: null });
    expect(priorityBulk(1)).toEqual({ enabled: true, tooltip: null });
    expect(priorityBulk(50)).toEqual({ enabled: true, tooltip: null });
    expect(priorityBulk(51)).toEqual({
      enabled: false,
      tooltip: 'Please select 50 or less sources to proceed',
    });
  });
});

const catalogue: Categories = {
  results: [
    {
      key: 'rss_news',
      label: 'News',
      group: null,
      sources: [source({ key: 'reuters', label: 'Reuters', followed: false })],
    },
    {
      key: 'exchanges',
      label: 'Exchanges',
      group: null,
      sources: [
        source({ key: 'sec', label: 'SEC', group: 'US Capital Markets', followed: false }),
        source({ key: 'bse_filings', label: 'BSE Filings', group: 'Indian Capital Markets' }),
        source({ key: 'sebi', label: 'SEBI', group: 'Indian Capital Markets', followed: false }),
      ],
    },
  ],
};

describe('the catalogue (000 §3 groups)', () => {
  it('lists Indian and US Capital Markets first, then the other categories', () => {
    expect(
      catalogueSections(catalogue).map((s) => [s.title, s.sources.map((x) => x.label)]),
    ).toEqual([
      ['Indian Capital Markets', ['BSE Filings', 'SEBI']],
      ['US Capital Markets', ['SEC']],
      ['News', ['Reuters']],
    ]);
    expect(catalogueSections(catalogue, 'us capital').map((s) => s.title)).toEqual([
      'US Capital Markets',
    ]);
  });

  it("shows the user's own follows over the catalogue's cached copy", () => {
    const mine = [source({ key: 'sec', label: 'SEC', group: 'US Capital Markets' })];
    const sections = catalogueSections(withFollowed(catalogue, mine));
    const followedKeys = sections.flatMap((s) =>
      s.sources.filter((x) => x.followed).map((x) => x.key),
    );
    expect(followedKeys).toEqual(['sec']);
  });

  it('follows a source with the spec toast', async () => {
    const { calls } = await renderShell({
      path: '/connect/website',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'sources.catalogue': () => catalogue,
        'sources.follow': ({ key }) => ({
          source: source({ key, label: 'SEC' }),
          message: 'SEC is successfully followed',
        }),
      },
    });
    const headings = await screen.findAllByRole('heading', { level: 2 });
    expect(headings.map((h) => h.textContent)).toEqual([
      'Indian Capital Markets',
      'US Capital Markets',
      'News',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Follow SEC' }));
    expect(await screen.findByText('SEC is successfully followed')).toBeTruthy();
    expect(calls.find((c) => c.op === 'sources.follow')?.input).toEqual({ key: 'sec' });
  });
});

describe('/connect/rss', () => {
  const fill = async (url: string) =>
    fireEvent.change(await screen.findByLabelText('Feed or website address'), {
      target: { value: url },
    });

  it('follows a feed by address and says so', async () => {
    const { calls } = await renderShell({
      path: '/connect/rss',
      session: SIGNED_IN,
      handlers: { 'flags.get': () => FEED_FLAGS, 'sources.followUrl': () => source() },
    });
    await fill(' http://127.0.0.1:9999/feed.xml ');
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByText('Fixture Feed is successfully followed')).toBeTruthy();
    expect(calls.find((c) => c.op === 'sources.followUrl')?.input).toEqual({
      url: 'http://127.0.0.1:9999/feed.xml',
    });
    expect(screen.getByRole('link', { name: 'See its documents' }).getAttribute('href')).toBe(
      '/apps/rss_1',
    );
  });

  it('does not say "no feeds" while built-in sources are followed (issue 18)', async () => {
    await renderShell({
      path: '/connect/rss',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'sources.list': () => [
          source({ key: 'demo_wire', kind: 'builtin' }),
          source({ key: 'sec', source_id: 's2', kind: 'filings' }),
        ],
      },
    });
    const section = await screen.findByRole('region', { name: 'Feeds you follow' });
    await waitFor(() =>
      expect(section.textContent).toContain(
        'You follow no RSS feeds or websites yet. You follow 2 built-in sources (news and filings): see them in Ingestion status.',
      ),
    );
    expect(
      within(section)
        .getByRole('link', { name: 'see them in Ingestion status' })
        .getAttribute('href'),
    ).toBe('/settings/feeds');
  });

  it("shows the server's 400 message in words", async () => {
    await renderShell({
      path: '/connect/rss',
      session: SIGNED_IN,
      handlers: {
        'sources.followUrl': () =>
          Promise.reject(
            apiError(400, 'bad_request', 'url could not be fetched: connection refused'),
          ),
      },
    });
    await fill('http://127.0.0.1:1/nothing');
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'url could not be fetched: connection refused',
    );
  });
});

describe('/connect/website/followed', () => {
  const many = Array.from({ length: 51 }, (_, i) =>
    source({ key: `rss_${i + 1}`, source_id: `s${i + 1}`, label: `Feed ${i + 1}` }),
  );

  it('sets priority on the selected sources, and refuses more than 50', async () => {
    const { calls } = await renderShell({
      path: '/connect/website/followed',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'sources.list': () => many,
        'sources.setPriority': ({ source_ids }) => ({
          updated: source_ids.length,
          message: 'Priority updated successfully.',
        }),
      },
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Feed 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Feed 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Mark as priority' }));
    expect(await screen.findByText('Priority updated successfully.')).toBeTruthy();
    expect(calls.find((c) => c.op === 'sources.setPriority')?.input).toEqual({
      source_ids: ['s1', 's2'],
      priority: true,
    });

    for (const checkbox of screen.getAllByRole('checkbox')) fireEvent.click(checkbox);
    const mark = screen.getByRole('button', { name: 'Mark as priority' });
    await waitFor(() => expect((mark as HTMLButtonElement).disabled).toBe(true));
    expect(mark.parentElement?.getAttribute('title')).toBe(
      'Please select 50 or less sources to proceed',
    );
    expect(screen.getByText('Please select 50 or less sources to proceed')).toBeTruthy();
  });

  it('says so when priority cannot be set', async () => {
    await renderShell({
      path: '/connect/website/followed',
      session: SIGNED_IN,
      handlers: {
        'flags.get': () => FEED_FLAGS,
        'sources.list': () => many.slice(0, 2),
        'sources.setPriority': () => Promise.reject(apiError(500, 'internal', 'boom')),
      },
    });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Feed 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove priority' }));
    expect(
      await screen.findByText(
        'Failed to update priority for the selected sources. Please try again later.',
      ),
    ).toBeTruthy();
  });
});

describe('/settings/feeds', () => {
  it("lists each followed source's ingestion status", async () => {
    await renderShell({
      path: '/settings/feeds',
      session: SIGNED_IN,
      handlers: {
        'sources.list': () => [
          source(),
          source({
            key: 'rss_2',
            source_id: 's2',
            label: 'Broken Feed',
            status: {
              state: 'error',
              last_run_at: null,
              next_run_at: null,
              items: 0,
              last_new: 0,
              last_error: 'The address answered 404 Not Found',
            },
          }),
        ],
      },
    });
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Source', 'Kind', 'Status', 'Last run', 'Next run', 'Items', 'Last error']);
    const broken = within(table).getByRole('row', { name: /Broken Feed/ });
    expect(within(broken).getByText('The address answered 404 Not Found')).toBeTruthy();
    expect(within(broken).getByText('Failed')).toBeTruthy();
    const fixture = within(table).getByRole('row', { name: /Fixture Feed/ });
    expect(within(fixture).getByText('3 documents (3 new)')).toBeTruthy();
  });
});
