import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchKey, searchRowId, type SearchParams } from '../../contract/search';
import type { OpInput } from '../../contract/worker-api';
import { createSearch, searchRow } from './search-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

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

describe("results from the worker's mirror", () => {
  it('paints a search run before at once, then the revalidated answer when it moved', async () => {
    // The mirror's answer first (stale: the worker is fetching it again), then the new one.
    let revalidated = false;
    const before = createSearch(2, { stale: true });
    const after = createSearch(2);
    const { emit, calls } = await renderShell({
      path: '/search?q=rates',
      session: SIGNED_IN,
      handlers: {
        'search.tags': () => [],
        'search.window': (input) => {
          if (!revalidated) return before(input);
          const answer = after(input);
          answer.rows[0] = searchRow(1, { title: 'Rates story 1, updated' });
          return answer;
        },
      },
    });
    expect(await screen.findByRole('article', { name: 'Rates story 1' })).toBeTruthy();

    const params = (calls.find((c) => c.op === 'search.window')?.input as OpInput<'search.window'>)
      .params as SearchParams;
    revalidated = true;
    // Another search's rows changing concerns this one not at all.
    emit({ type: 'changed', store: 'search_results', keys: [searchRowId('other', 0)] });
    const reads = calls.filter((c) => c.op === 'search.window').length;
    emit({ type: 'changed', store: 'search_results', keys: [searchRowId(searchKey(params), 0)] });
    expect(await screen.findByRole('article', { name: 'Rates story 1, updated' })).toBeTruthy();
    await waitFor(() =>
      expect(calls.filter((c) => c.op === 'search.window').length).toBe(reads + 1),
    );
  });
});

describe("an app's search page", () => {
  it('keeps its tab in category_tab and searches only that source', async () => {
    const { calls } = await renderShell({
      path: '/search/demo_us_filings?q=revenue&category_tab=us_capital_markets',
      session: SIGNED_IN,
      handlers: {
        'search.tags': () => [],
        'search.exchanges': () => [],
        'search.window': createSearch(1),
      },
    });
    await screen.findByRole('article', { name: 'Rates story 1' });
    expect(
      (calls.find((c) => c.op === 'search.window')?.input as OpInput<'search.window'>).params,
    ).toMatchObject({ q: 'revenue', source: 'demo_us_filings', tab: 'us_capital_markets' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'revenue in US Filings (demo)',
    );
  });
});
