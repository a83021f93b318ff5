import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentDetail } from '../../contract/documents';
import type { Tag } from '../../contract/tags';
import { FEED_FLAGS, storyCard, type BoardEntryRow } from './feed-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

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

const tag = (id: string, name: string): Tag => ({
  id,
  name,
  created_at: '2024-01-01T00:00:00.000Z',
});

const plainCard = (i: number) => {
  const { read: _read, ...card } = storyCard(i);
  return card;
};

const detail = (i: number): DocumentDetail => {
  const { read: _read, ...card } = storyCard(i);
  return { ...card, content: `<p>Text ${i}.</p>`, body: `Text ${i}.`, read: false };
};

/**
 * The worker as the tags UI sees it: a feed of `rows`, the user's tags and each document's tag
 * ids, changed by tags.setDocument as the mirror would be (the test announces the change).
 */
function tagWorld(opts: { rows: BoardEntryRow[]; tags?: Tag[]; links?: Record<string, string[]> }) {
  const tags = [...(opts.tags ?? [])];
  const links = new Map(Object.entries(opts.links ?? {}));
  let refuse: Error | null = null;
  const handlers = {
    'flags.get': () => FEED_FLAGS,
    'feed.tabs': () => [{ key: 'rss_news' as const, label: 'News', data: 1, icon: '' }],
    'feed.window': ({ offset }: { offset: number }) => ({
      offset,
      rows: offset === 0 ? opts.rows : [],
      total: opts.rows.length,
      complete: true,
    }),
    'doc.get': ({ deeplink }: { deeplink: string }) => detail(Number(deeplink.slice(1))),
    'doc.setRead': () => undefined,
    'doc.readState': () => ({}),
    'tags.list': () => [...tags],
    'tags.ofDocuments': ({ deeplinks }: { deeplinks: string[] }) =>
      Object.fromEntries(deeplinks.map((d) => [d, links.get(d) ?? []])),
    'tags.setDocument': (input: {
      deeplink: string;
      tag_ids: string[];
      create?: Array<{ id: string; tag: string }>;
    }) => {
      if (refuse) throw refuse;
      for (const made of input.create ?? [])
        if (!tags.some((t) => t.id === made.id)) tags.push(tag(made.id, made.tag));
      links.set(input.deeplink, input.tag_ids);
    },
    // A tag page's window, newest first, as the mirror's (tag, time) index answers it.
    'tags.window': ({
      tag_id,
      offset,
      count,
    }: {
      tag_id?: string;
      offset: number;
      count: number;
    }) => {
      const rows = [...links]
        .filter(([, ids]) => (tag_id ? ids.includes(tag_id) : ids.some((t) => t !== 'bookmark')))
        .map(([deeplink]) => ({ deeplink, card: storyCard(Number(deeplink.slice(1))) }))
        .sort((a, b) => b.card.unix - a.card.unix);
      return { offset, rows: rows.slice(offset, offset + count), total: rows.length };
    },
  };
  return { handlers, links, refuseWith: (error: Error | null) => (refuse = error) };
}

const cardOf = (title: string) => screen.getByRole('article', { name: title });

describe('the bookmark toggle', () => {
  it('bookmarks a card at once, and the bookmarks page lists the document', async () => {
    const world = tagWorld({ rows: [storyCard(1), storyCard(2)] });
    const view = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    await screen.findByText('Story 1');
    const toggle = await within(cardOf('Story 1')).findByRole('button', { name: 'Bookmark' });
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    expect(toggle.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(toggle);
    const pressed = within(cardOf('Story 1')).getByRole('button', { name: 'Remove bookmark' });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    expect(view.calls.filter((c) => c.op === 'tags.setDocument').map((c) => c.input)).toEqual([
      {
        deeplink: 'd1',
        tag_ids: ['bookmark'],
        create: [{ id: 'bookmark', tag: 'needl_internal_bookmark' }],
        // The card goes with the write: the tag pages list it from the mirror at once.
        card: plainCard(1),
      },
    ]);
    // The other card is not bookmarked.
    expect(
      within(cardOf('Story 2'))
        .getByRole('button', { name: 'Bookmark' })
        .getAttribute('aria-pressed'),
    ).toBe('false');

    await act(() => view.shell.router.navigate({ href: '/needlbox/bookmarks/all' }));
    const list = await screen.findByRole('list', { name: 'Bookmarked documents' });
    expect(await within(list).findByRole('link', { name: 'Story 1' })).toBeTruthy();
    expect(within(list).queryByRole('link', { name: 'Story 2' })).toBeNull();
    expect(screen.queryByText('Not available yet')).toBeNull();

    // Taken off from the page, the document leaves the list once the worker says so.
    const remove = await within(list).findByRole('button', { name: 'Remove bookmark' });
    await waitFor(() => expect((remove as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(remove);
    expect(world.links.get('d1')).toEqual([]);
    view.emit({ type: 'changed', store: 'document_tags', keys: ['d1'] });
    expect(await screen.findByText(/No bookmarks yet/)).toBeTruthy();
  });

  it('shows the bookmark again as it was when the worker refuses, with the message', async () => {
    const world = tagWorld({ rows: [storyCard(1)], links: { d1: ['bookmark'] } });
    world.refuseWith(apiError(400, 'bad_request', 'tags holds at most 50 tags'));
    await renderShell({ path: '/feeds/home', session: SIGNED_IN, handlers: world.handlers });
    const toggle = await within(await screen.findByRole('article', { name: 'Story 1' })).findByRole(
      'button',
      { name: 'Remove bookmark' },
    );
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(await screen.findByText('tags holds at most 50 tags')).toBeTruthy();
    const back = within(cardOf('Story 1')).getByRole('button', { name: 'Remove bookmark' });
    expect(back.getAttribute('aria-pressed')).toBe('true');
  });

  it('is in the preview, and follows a change made elsewhere', async () => {
    const world = tagWorld({ rows: [storyCard(1)] });
    const view = await renderShell({
      path: '/feeds/home?overlay-type=preview&overlay-source=reuters&overlay-category=rss_news&overlay-deeplink=d1',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    const panel = await screen.findByTestId('overlay');
    await within(panel).findByText('Text 1.');
    const toggle = await within(panel).findByRole('button', { name: 'Bookmark' });
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(toggle);
    expect(
      within(panel).getByRole('button', { name: 'Remove bookmark' }).getAttribute('aria-pressed'),
    ).toBe('true');

    // Another tab takes it off: the preview shows it at once.
    world.links.set('d1', []);
    view.emit({ type: 'changed', store: 'document_tags', keys: ['d1'] });
    expect(await within(panel).findByRole('button', { name: 'Bookmark' })).toBeTruthy();
  });
});

describe('user tags on cards', () => {
  const seven = ['a1', 'b22', 'c333', 'd4444', 'e55555', 'f666666', 'g7777777'];
  const sevenTags = seven.map((id, i) => tag(id, `Tag ${i + 1}`));

  it('shows five pills on desktop and the rest in the overflow popup', async () => {
    const world = tagWorld({
      rows: [storyCard(1)],
      tags: [...sevenTags, tag('bookmark', 'needl_internal_bookmark')],
      links: { d1: [...seven, 'bookmark'] },
    });
    await renderShell({ path: '/feeds/home', session: SIGNED_IN, handlers: world.handlers });
    await screen.findByText('Story 1');
    const pills = await within(cardOf('Story 1')).findByRole('list', { name: 'Your tags' });
    expect(
      within(pills)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Tag 1', 'Tag 2', 'Tag 3', 'Tag 4', 'Tag 5']);
    fireEvent.click(within(cardOf('Story 1')).getByRole('button', { name: '2 more tags' }));
    const more = within(cardOf('Story 1')).getByRole('list', { name: 'More tags' });
    expect(
      within(more)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Tag 6', 'Tag 7']);
  });

  it('shows one pill on a phone', async () => {
    setViewportWidth(400);
    const world = tagWorld({ rows: [storyCard(1)], tags: sevenTags, links: { d1: seven } });
    await renderShell({ path: '/feeds/home', session: SIGNED_IN, handlers: world.handlers });
    await screen.findByText('Story 1');
    const pills = await within(cardOf('Story 1')).findByRole('list', { name: 'Your tags' });
    expect(
      within(pills)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Tag 1']);
    expect(within(cardOf('Story 1')).getByRole('button', { name: '6 more tags' })).toBeTruthy();
  });
});

describe('the tag picker', () => {
  it('offers "Add {tag}" only for a new trimmed name, and choosing a tag toggles it', async () => {
    const world = tagWorld({
      rows: [storyCard(1)],
      tags: [tag('t1', 'Macro'), tag('t22', 'Rates'), tag('bookmark', 'needl_internal_bookmark')],
    });
    const view = await renderShell({
      path: '/feeds/home',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    await screen.findByText('Story 1');
    fireEvent.click(within(cardOf('Story 1')).getByRole('button', { name: 'Tags' }));
    const picker = await screen.findByRole('dialog', { name: 'Tag this document' });
    const input = within(picker).getByLabelText('Find or add a tag');
    const options = () =>
      within(picker)
        .queryAllByRole('button')
        .map((b) => b.textContent);

    // Every tag but the bookmark, and no offer for an empty input.
    await waitFor(() => expect(options()).toEqual(['Macro', 'Rates']));
    fireEvent.change(input, { target: { value: '   ' } });
    expect(options()).toEqual(['Macro', 'Rates']);
    // An existing name, whatever its case and spaces: filtered, no offer.
    fireEvent.change(input, { target: { value: '  mACro ' } });
    expect(options()).toEqual(['Macro']);
    // The reserved bookmark name is never offered.
    fireEvent.change(input, { target: { value: 'needl_internal_bookmark' } });
    expect(options()).toEqual([]);
    // A new name: offered trimmed.
    fireEvent.change(input, { target: { value: '  Energy transition  ' } });
    expect(options()).toEqual(['Add Energy transition']);

    fireEvent.click(within(picker).getByRole('button', { name: 'Add Energy transition' }));
    const added = view.calls
      .filter((c) => c.op === 'tags.setDocument')
      .map((c) => c.input) as Array<{
      tag_ids: string[];
      create: Array<{ id: string; tag: string }>;
    }>;
    expect(added).toHaveLength(1);
    expect(added[0].create.map((c) => c.tag)).toEqual(['Energy transition']);
    expect(added[0].tag_ids).toEqual([added[0].create[0].id]);
    view.emit({ type: 'changed', store: 'tags', keys: null });
    const pills = await within(cardOf('Story 1')).findByRole('list', { name: 'Your tags' });
    await waitFor(() =>
      expect(
        within(pills)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Energy transition']),
    );

    // Choosing an existing tag puts it on; choosing it again takes it off.
    fireEvent.change(input, { target: { value: '' } });
    const macro = within(picker).getByRole('button', { name: 'Macro' });
    expect(macro.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(macro);
    expect(within(picker).getByRole('button', { name: 'Macro' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(
      within(pills)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Macro', 'Energy transition']);
    fireEvent.click(within(picker).getByRole('button', { name: 'Macro' }));
    expect(
      within(pills)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Energy transition']);
    expect(world.links.get('d1')).toEqual([added[0].create[0].id]);

    // Escape closes it.
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Tag this document' })).toBeNull();
  });
});

describe('/needlbox/tags/all', () => {
  it("lists the documents with any of the user's tags, or with the one chosen", async () => {
    const world = tagWorld({
      rows: [],
      tags: [tag('t1', 'Macro'), tag('t22', 'Rates')],
      links: { d1: ['t1'], d2: ['t22', 'bookmark'], d3: ['bookmark'] },
    });
    const view = await renderShell({
      path: '/needlbox/tags/all',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    const list = await screen.findByRole('list', { name: 'Tagged documents' });
    await within(list).findByRole('link', { name: 'Story 1' });
    // Newest first; the bookmarked-only document is not a tagged one.
    expect(
      within(list)
        .getAllByRole('article')
        .map((a) => within(a).getByRole('heading', { level: 3 }).textContent),
    ).toEqual(['Story 1', 'Story 2']);

    fireEvent.click(screen.getByRole('button', { name: 'Rates' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Tagged documents' }))
          .getAllByRole('article')
          .map((a) => within(a).getByRole('heading', { level: 3 }).textContent),
      ).toEqual(['Story 2']),
    );
    expect(view.calls.filter((c) => c.op === 'tags.window').at(-1)?.input).toEqual({
      tag_id: 't22',
      offset: 0,
      count: 50,
    });
    expect(screen.getByRole('button', { name: 'Rates' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('a card there opens the preview', async () => {
    const world = tagWorld({ rows: [], tags: [tag('t1', 'Macro')], links: { d1: ['t1'] } });
    const { history } = await renderShell({
      path: '/needlbox/tags/all',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Story 1' }));
    await waitFor(() => expect(history.location.search).toContain('overlay-type=preview'));
    expect(history.location.pathname).toBe('/needlbox/tags/all');
    const panel = await screen.findByTestId('overlay');
    expect(await within(panel).findByText('Text 1.')).toBeTruthy();
  });
});
