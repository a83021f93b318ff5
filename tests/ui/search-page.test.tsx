import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Source } from '../../contract/sources';
import type { OpInput } from '../../contract/worker-api';
import { createSearch, tab } from './search-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

/** The list's scroll area is 600 px tall (jsdom lays nothing out, so the test says so). */
beforeEach(() => {
  setViewportWidth(1600);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-list') ? 600 : 0;
    },
  });
});
afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

type Handlers = Parameters<typeof renderShell>[0]['handlers'];

function renderSearch(path: string, handlers: Handlers = {}) {
  return renderShell({
    path,
    session: SIGNED_IN,
    handlers: {
      'search.window': createSearch(3),
      'search.tags': () => [],
      'search.exchanges': () => [],
      ...handlers,
    },
  });
}

const heading = () => screen.findByRole('heading', { level: 1 });
type WindowInput = OpInput<'search.window'>;
const windowCalls = (calls: Array<{ op: string; input: unknown }>) =>
  calls.filter((c) => c.op === 'search.window').map((c) => c.input as WindowInput);

describe('the search header', () => {
  it.each([
    ['/search?q=rates', 'rates in My Data'],
    ['/search?q=rates&search_type=needl_web', 'rates in Needl Web'],
    ['/search?q=rates&search_type=shared_data', 'rates in Group Data'],
    ['/search/rss_news?q=rates', 'rates in My Data'],
    ['/search', 'Search'],
  ])('%s is headed "%s"', async (path, title) => {
    await renderSearch(path);
    await waitFor(async () => expect((await heading()).textContent).toBe(title));
  });

  it("names the app on its own search page, and searches only that source's documents", async () => {
    const wire = { key: 'demo_markets_wire', label: 'Markets Wire' } as Source;
    const { calls } = await renderSearch('/search/demo_markets_wire?q=rates', {
      'sources.list': () => [wire],
    });
    await waitFor(async () => expect((await heading()).textContent).toBe('rates in Markets Wire'));
    expect(windowCalls(calls)[0].params).toMatchObject({ q: 'rates', source: 'demo_markets_wire' });
  });

  it('shows the corrected query as the header and the original as the sub-header', async () => {
    const { calls, history } = await renderSearch('/search?q=inflaton', {
      'search.window': (input) =>
        input.params.spell_correct
          ? createSearch(2, { corrected_q: 'inflation', searched_q: 'inflation' })(input)
          : createSearch(0)(input),
    });
    await waitFor(async () => expect((await heading()).textContent).toBe('inflation in My Data'));
    const subtitle = document.querySelector('.page-subtitle');
    expect(subtitle?.textContent).toBe('Search instead for inflaton');

    fireEvent.click(within(subtitle as HTMLElement).getByRole('link', { name: 'inflaton' }));
    await waitFor(() => expect(history.location.search).toContain('spell_correct=false'));
    await waitFor(async () => expect((await heading()).textContent).toBe('inflaton in My Data'));
    expect(windowCalls(calls).at(-1)?.params.spell_correct).toBe(false);
    expect(await screen.findByText('No search results found.')).toBeTruthy();
  });
});

describe('the search box', () => {
  it('writes the trimmed query to the address once typing pauses for 500 ms', async () => {
    const { history, calls } = await renderSearch('/search');
    const box = await screen.findByRole('searchbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: '  rates  ' } });
    expect(history.location.search).toBe('');
    await waitFor(() => expect(history.location.search).toBe('?q=rates'), { timeout: 2000 });
    await waitFor(() => expect(windowCalls(calls).at(-1)?.params.q).toBe('rates'));
    expect((await heading()).textContent).toBe('rates in My Data');
  });
});

describe('results', () => {
  it('counts them, and says "About" when the count is an estimate', async () => {
    await renderSearch('/search?q=rates', {
      'search.window': createSearch(3, { count: 1200, count_exact: false }),
    });
    expect(await screen.findByText('About 1,200 results')).toBeTruthy();
  });

  it('shows each result with its highlighted snippet, keeping only the <em> marks', async () => {
    await renderSearch('/search?q=rates', {
      'search.window': createSearch(1, {}),
    });
    const card = await screen.findByRole('article', { name: 'Rates story 1' });
    expect(await screen.findByText('1 result')).toBeTruthy();
    const em = card.querySelector('.card-text em');
    expect(em?.textContent).toBe('rates');
  });

  it('renders a hostile snippet as text with <em> and nothing else', async () => {
    const hostile = createSearch(1);
    await renderSearch('/search?q=rates', {
      'search.window': (input) => {
        const answer = hostile(input);
        answer.rows[0].highlights = [
          '<img src=x onerror="alert(1)"><em onclick="x()">rates</em><script>alert(2)</script> <b>up</b>',
        ];
        return answer;
      },
    });
    const card = await screen.findByRole('article', { name: 'Rates story 1' });
    const text = card.querySelector('.card-text') as HTMLElement;
    expect(text.innerHTML).toBe('<span class="search-highlights"><em>rates</em> up</span>');
  });

  it('says "No search results found." when nothing matches', async () => {
    await renderSearch('/search?q=zqxjkvbw', { 'search.window': createSearch(0) });
    expect(await screen.findByText('No search results found.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
  });

  it("shows the spec's failure text with Try again, never the HTTP error", async () => {
    let fail = true;
    const ok = createSearch(2);
    const { calls } = await renderSearch('/search?q=rates', {
      'search.window': (input) => {
        if (fail) throw apiError(500, 'internal', 'POST /search failed with HTTP 500');
        return ok(input);
      },
      'search.refresh': (input) => {
        fail = false;
        return ok({ params: input.params, offset: 0, count: 50 });
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Oops! Something Went Wrong. Please Try Again Later :( Try again',
    );
    expect(alert.textContent).not.toContain('HTTP');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Rates story 2' })).toBeTruthy();
    expect(calls.some((c) => c.op === 'search.refresh')).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('tabs, sort and date range', () => {
  it('shows "All" and each tab with its count, and a tab is its own route', async () => {
    const { history, calls } = await renderSearch('/search?q=rates', {
      'search.window': createSearch(3, {
        category_tabs: [tab('today', 4), tab('rss_news', 25), tab('us_capital_markets', 10)],
      }),
    });
    await waitFor(() => expect(screen.getAllByRole('tab').length).toBe(3));
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'All 35',
      'News 25',
      'US Exchange 10',
    ]);
    fireEvent.click(screen.getByRole('tab', { name: 'US Exchange 10' }));
    await waitFor(() => expect(history.location.pathname).toBe('/search/us_capital_markets'));
    expect(history.location.search).toBe('?q=rates');
    await waitFor(() => expect(windowCalls(calls).at(-1)?.params.tab).toBe('us_capital_markets'));
    expect(screen.getByRole('tab', { name: 'US Exchange 10' }).getAttribute('aria-selected')).toBe(
      'true',
    );
  });

  it('offers the sort options of 002 §9 and searches in the chosen order', async () => {
    const { history, calls } = await renderSearch('/search?q=rates');
    const select = await screen.findByRole('combobox', { name: 'Sort by' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Relevance',
      'Latest first',
      'Oldest first',
      'Latest updated',
      'Oldest updated',
      'Size: largest',
      'Size: smallest',
      'With attachments',
      'Without attachments',
      'Company Z to A',
      'Company A to Z',
      'Category Z to A',
      'Category A to Z',
    ]);
    fireEvent.change(select, { target: { value: 'oldest' } });
    await waitFor(() => expect(history.location.search).toBe('?q=rates&sort=oldest'));
    await waitFor(() => expect(windowCalls(calls).at(-1)?.params.sort).toBe('oldest'));
  });

  it('narrows by a duration option or a checked DD-MM-YYYY range', async () => {
    const { history, calls } = await renderSearch('/search?q=rates');
    const select = await screen.findByRole('combobox', { name: 'Date' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Any time',
      'Last 1 day',
      'Last 1 week',
      'Last 1 month',
      'Last 3 months',
      'Last 6 months',
      'Last 1 year',
      'Last 2 years',
      'Last 3 years',
      'Custom range',
    ]);
    fireEvent.change(select, { target: { value: '1w' } });
    await waitFor(() => expect(history.location.search).toBe('?q=rates&durationOption=1w'));
    await waitFor(() =>
      expect(windowCalls(calls).at(-1)?.params.date_range).toEqual({ durationOption: '1w' }),
    );

    fireEvent.change(select, { target: { value: 'custom' } });
    const form = screen.getByRole('form', { name: 'Custom date range' });
    fireEvent.change(within(form).getByLabelText('From'), { target: { value: '31-02-2025' } });
    fireEvent.change(within(form).getByLabelText('To'), { target: { value: '10-03-2025' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    expect(within(form).getByRole('alert').textContent).toBe('Enter both dates as DD-MM-YYYY.');
    fireEvent.change(within(form).getByLabelText('From'), { target: { value: '01-03-2025' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(history.location.search).toBe('?q=rates&startDate=01-03-2025&endDate=10-03-2025'),
    );
    await waitFor(() =>
      expect(windowCalls(calls).at(-1)?.params.date_range).toEqual({
        startDate: '01-03-2025',
        endDate: '10-03-2025',
      }),
    );
  });
});

describe('facets', () => {
  it('lists tags, and on an exchange tab companies; choosing one narrows the search', async () => {
    const { history, calls } = await renderSearch('/search/india_capital_markets?q=results', {
      'search.tags': () => [
        { key: 'Dividend', count: 5 },
        { key: 'Board Meeting', count: 3 },
      ],
      'search.exchanges': () => [{ key: 'Asterion Foods Ltd', count: 4 }],
    });
    const tags = await screen.findByRole('list', { name: 'Tags' });
    expect(
      within(tags)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Dividend5', 'Board Meeting3']);
    const companies = await screen.findByRole('list', { name: 'Companies' });
    expect(calls.find((c) => c.op === 'search.exchanges')?.input).toMatchObject({
      country: 'India',
    });
    fireEvent.click(within(companies).getByRole('button', { name: /Asterion Foods Ltd/ }));
    await waitFor(() =>
      expect(history.location.search).toBe('?q=results&company=Asterion+Foods+Ltd'),
    );
    fireEvent.click(within(tags).getByRole('button', { name: /Dividend/ }));
    await waitFor(() =>
      expect(windowCalls(calls).at(-1)?.params.filter).toEqual({
        tags: ['Dividend'],
        companies: ['Asterion Foods Ltd'],
      }),
    );
    expect(
      within(tags)
        .getByRole('button', { name: /Dividend/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });
});
