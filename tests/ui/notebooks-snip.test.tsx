import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentDetail } from '../../contract/documents';
import type { Notebook } from '../../contract/notebooks';
import { FEED_FLAGS, storyCard } from './feed-fixtures';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  window.getSelection()?.removeAllRanges();
  cleanup();
});

const PREVIEW =
  '/feeds/home?overlay-type=preview&overlay-source=reuters&overlay-category=rss_news&overlay-deeplink=d1';

const rates: Notebook = {
  notebook_id: 'nb-1',
  notebook_name: 'Rates',
  notebook_type: 'user',
  notes: 0,
  notebook_created_at: '2024-01-01T00:00:00.000Z',
  notebook_updated_at: '2024-01-01T00:00:00.000Z',
  default: false,
};

const handlers = {
  'flags.get': () => ({ ...FEED_FLAGS, notebooks: true }),
  'notebooks.gate': () => ({ isEligible: true, message: null }),
  'notebooks.list': () => [rates],
  'notes.create': () => undefined,
  'doc.get': (): DocumentDetail => {
    const { read: _read, ...card } = storyCard(1);
    return {
      ...card,
      content: '<p>The bank held rates.</p><p>Markets rallied after the decision.</p>',
      body: 'The bank held rates.\n\nMarkets rallied after the decision.',
      read: false,
    };
  },
  'doc.setRead': () => undefined,
  'doc.readState': () => ({}),
};

describe('a snip into a notebook ("Add to notebook" with a selection in the preview)', () => {
  it('keeps the text selected when the picker opened, though the picker took the selection', async () => {
    const view = await renderShell({ path: PREVIEW, session: SIGNED_IN, handlers });
    const panel = await screen.findByTestId('overlay', {}, { timeout: 10_000 });
    const paragraph = await within(panel).findByText(
      'Markets rallied after the decision.',
      {},
      { timeout: 10_000 },
    );
    const range = document.createRange();
    range.selectNodeContents(paragraph);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);

    fireEvent.click(within(panel).getByRole('button', { name: 'Add to notebook' }));
    // The picker's field has the focus: in a browser the page's selection is gone by now.
    window.getSelection()!.removeAllRanges();
    const picker = within(panel).getByRole('dialog', { name: 'Add to notebook' });
    fireEvent.click(
      await within(picker).findByRole('button', { name: 'Rates' }, { timeout: 10_000 }),
    );

    await waitFor(
      () =>
        expect(view.calls.filter((c) => c.op === 'notes.create').map((c) => c.input)).toEqual([
          {
            id: expect.any(String),
            notebook_id: 'nb-1',
            name: 'Story 1',
            document: [
              { type: 'heading', children: [{ text: 'Story 1', href: '/preview/reuters/d1' }] },
              { type: 'paragraph', children: [{ text: 'Markets rallied after the decision.' }] },
            ],
          },
        ]),
      { timeout: 10_000 },
    );
  });
});
