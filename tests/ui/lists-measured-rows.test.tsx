import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../contract/notifications';
import type { OpInput, OpOutput } from '../../contract/worker-api';
import { createSearch, searchRow } from './search-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

/*
 * Issue 18: search results and notifications, like the feed's cards, are as tall as their
 * content (the list measures each row it shows) instead of one fixed height. jsdom lays nothing
 * out, so the test says how tall a row's content is: 100 px, plus 20 px for each started 80
 * characters of its text (a short snippet is one line, a long one three).
 */
const rowPx = (row: HTMLElement) => {
  const text = row.querySelector('.card-text, .notification-body')?.textContent ?? '';
  return 100 + 20 * Math.ceil(text.length / 80);
};

beforeEach(() => {
  setViewportWidth(1600);
  // The list's scroll area is 600 px tall; a row measures what its content needs.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-list') ? 600 : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('virtual-row') ? rowPx(this) : 0;
    },
  });
});
afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { offsetHeight?: number }).offsetHeight;
});

/** The rows of the list named `name`: where each is placed (px from the top), and its height. */
function placesOf(name: string) {
  const list = screen.getByRole('list', { name });
  return Array.from(list.querySelectorAll<HTMLElement>(':scope > * > [role="listitem"]')).map(
    (row) => ({
      top: /translateY\((-?[\d.]+)px\)/.exec(row.style.transform)?.[1],
      height: row.style.height,
    }),
  );
}

/** A snippet of `n` sentences, each 12 characters with the space between them. */
const sentences = (n: number) => '<em>Rates</em> held. '.repeat(n).trim();

describe('search results take their content’s height', () => {
  it('places each result under the one before, as tall as its snippet', async () => {
    // 179, 27 and 95 characters of snippet: 3, 1 and 2 lines (160, 120 and 140 px).
    const highlights = [[sentences(15)], ['Central banks held <em>rates</em> 2.'], [sentences(8)]];
    const search = createSearch(3);
    await renderShell({
      path: '/search?q=rates',
      session: SIGNED_IN,
      handlers: {
        'search.window': (input: OpInput<'search.window'>): OpOutput<'search.window'> => {
          const answer = search(input);
          return {
            ...answer,
            rows: answer.rows.map((_row, k) =>
              searchRow(input.offset + k + 1, { highlights: highlights[input.offset + k] }),
            ),
          };
        },
        'search.tags': () => [],
        'search.exchanges': () => [],
      },
    });
    expect(await screen.findByRole('article', { name: 'Rates story 3' })).toBeTruthy();
    expect(
      Array.from(document.querySelectorAll('.card-text')).map((el) => el.textContent?.length),
    ).toEqual([179, 27, 95]);
    // No fixed height on a row: the second starts where the first's content ends.
    expect(placesOf('Search results')).toEqual([
      { top: '0', height: '' },
      { top: '160', height: '' },
      { top: '280', height: '' },
    ]);
    const inner = screen.getByRole('list', { name: 'Search results' })
      .firstElementChild as HTMLElement;
    expect(inner.style.height).toBe('420px');
  });
});

const note = (id: string, title: string, body: string): Notification => ({
  id,
  title,
  body,
  link: null,
  read: false,
  created_at: '2026-11-20T09:00:00.000Z',
});

describe('notifications take their content’s height', () => {
  it('places each notification under the one before, as tall as its body', async () => {
    const rows = [
      note('n1', 'Summary ready', 'Your summary of the Q3 results is ready to read.'),
      note('n2', 'Weekly digest', 'x'.repeat(230)),
      note('n3', 'New filing', 'Acme filed its annual report, with restated segment revenue.'),
    ];
    await renderShell({
      path: '/notifications',
      session: SIGNED_IN,
      handlers: {
        'notifications.window': ({ offset, count }: { offset: number; count: number }) => ({
          offset,
          rows: rows.slice(offset, offset + count),
          total: rows.length,
          unread: 3,
        }),
        'notifications.unread': () => ({ unread: 3 }),
      },
    });
    expect(await screen.findByText('New filing')).toBeTruthy();
    // Bodies of 48, 230 and 61 characters: 1, 3 and 1 lines (120, 160 and 120 px).
    expect(placesOf('Notifications')).toEqual([
      { top: '0', height: '' },
      { top: '120', height: '' },
      { top: '280', height: '' },
    ]);
  });
});
