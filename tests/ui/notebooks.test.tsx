import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DocumentDetail } from '../../contract/documents';
import type { Note, Notebook } from '../../contract/notebooks';
import type { PricingMessage } from '../../contract/uploads';
import { FEED_FLAGS, storyCard } from './feed-fixtures';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(cleanup);

const notebook = (id: string, name: string, notes = 0, isDefault = false): Notebook => ({
  notebook_id: id,
  notebook_name: name,
  notebook_type: isDefault ? 'default' : 'user',
  notes,
  notebook_created_at: '2024-01-01T00:00:00.000Z',
  notebook_updated_at: '2024-01-01T00:00:00.000Z',
  default: isDefault,
});

const note = (id: string, notebookId: string, name: string, document: Note['document']): Note => ({
  id,
  notebook_id: notebookId,
  name,
  document,
  created_at: '2024-01-02T00:00:00.000Z',
  updated_at: '2024-01-02T00:00:00.000Z',
});

/** The worker as the notebooks UI sees it: the mirror's notebooks and notes, changed by writes. */
function notebookWorld(opts: { notebooks?: Notebook[]; notes?: Note[] } = {}) {
  const notebooks = [...(opts.notebooks ?? [])];
  const notes = [...(opts.notes ?? [])];
  let refuse: Error | null = null;
  let upsell: PricingMessage | null = null;
  const handlers = {
    'flags.get': () => ({ ...FEED_FLAGS, notebooks: true }),
    'notebooks.gate': () => ({ isEligible: upsell === null, message: upsell }),
    'notebooks.list': () => [...notebooks],
    'notebooks.create': (input: { id: string; name: string }) => {
      if (refuse) throw refuse;
      notebooks.push(notebook(input.id, input.name));
    },
    'notebooks.rename': (input: { id: string; name: string }) => {
      const held = notebooks.find((n) => n.notebook_id === input.id)!;
      held.notebook_name = input.name;
    },
    'notebooks.delete': (input: { id: string }) => {
      notebooks.splice(
        notebooks.findIndex((n) => n.notebook_id === input.id),
        1,
      );
    },
    'notes.list': (input: { notebook_id: string }) =>
      notes.filter((n) => n.notebook_id === input.notebook_id),
    'notes.get': (input: { id: string }) => notes.find((n) => n.id === input.id) ?? null,
    'notes.create': (input: Omit<Note, 'created_at' | 'updated_at'>) => {
      if (refuse) throw refuse;
      notes.push(note(input.id, input.notebook_id, input.name, input.document));
    },
    'notes.edit': (input: { id: string; document: Note['document']; name?: string }) => {
      const held = notes.find((n) => n.id === input.id)!;
      held.document = input.document;
      if (input.name !== undefined) held.name = input.name;
    },
    'notes.delete': (input: { id: string }) => {
      notes.splice(
        notes.findIndex((n) => n.id === input.id),
        1,
      );
    },
    'doc.get': ({ deeplink }: { deeplink: string }): DocumentDetail => {
      const { read: _read, ...card } = storyCard(Number(deeplink.slice(1)));
      return { ...card, content: '<p>Text 1.</p>', body: 'Text 1.', read: false };
    },
    'doc.setRead': () => undefined,
    'doc.readState': () => ({}),
  };
  return {
    handlers,
    notebooks,
    notes,
    refuseWith: (error: Error | null) => (refuse = error),
    limitWith: (message: PricingMessage | null) => (upsell = message),
  };
}

const inputsOf = (view: { calls: Array<{ op: string; input: unknown }> }, op: string) =>
  view.calls.filter((c) => c.op === op).map((c) => c.input);

describe('/notebooks', () => {
  it('lists the notebooks, the default first, and creates one', async () => {
    const world = notebookWorld({
      notebooks: [notebook('nb-0', 'My Notes', 2, true), notebook('nb-1', 'Rates', 1)],
    });
    const view = await renderShell({
      path: '/notebooks',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    const list = await screen.findByRole('list', { name: 'Your notebooks' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('a')?.textContent)).toEqual(['My Notes', 'Rates']);
    expect(within(rows[0]).getByText('2 notes')).toBeTruthy();
    expect(within(rows[1]).getByText('1 note')).toBeTruthy();
    expect(rows[1].querySelector('a')?.getAttribute('href')).toBe('/notebooks/nb-1');

    const field = screen.getByRole('textbox', { name: 'New notebook name' });
    const create = screen.getByRole('button', { name: 'Create notebook' }) as HTMLButtonElement;
    // A name already there (another case): no create.
    fireEvent.change(field, { target: { value: ' rates ' } });
    expect(create.disabled).toBe(true);
    expect(screen.getByText('A notebook of that name exists.')).toBeTruthy();
    fireEvent.change(field, { target: { value: '  Energy  ' } });
    expect(create.disabled).toBe(false);
    fireEvent.click(create);
    await waitFor(() =>
      expect(inputsOf(view, 'notebooks.create')).toEqual([
        { id: expect.any(String), name: 'Energy' },
      ]),
    );
    view.emit({ type: 'changed', store: 'notebooks', keys: null });
    await within(list).findByText('Energy');
  });

  it('says why a refused create went away', async () => {
    const world = notebookWorld();
    world.refuseWith(apiError(400, 'bad_request', 'a user holds at most 500 notebooks'));
    await renderShell({ path: '/notebooks', session: SIGNED_IN, handlers: world.handlers });
    await screen.findByText(/No notebooks yet/);
    fireEvent.change(screen.getByRole('textbox', { name: 'New notebook name' }), {
      target: { value: 'One' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create notebook' }));
    expect(await screen.findByText('a user holds at most 500 notebooks')).toBeTruthy();
  });

  it('shows the upsell past the plan and creates nothing', async () => {
    const world = notebookWorld();
    world.limitWith({
      header: 'Notebook limit reached',
      body: 'Your Free plan includes 50 notebooks.',
      subtext: 'Upgrade your plan to create more notebooks.',
      highlights: ['Upgrade your plan'],
      action: 'feed_manager',
    });
    const view = await renderShell({
      path: '/notebooks',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    await screen.findByText(/No notebooks yet/);
    fireEvent.change(screen.getByRole('textbox', { name: 'New notebook name' }), {
      target: { value: 'Fifty-one' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create notebook' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Notebook limit reached')).toBeTruthy();
    expect(within(alert).getByText('Your Free plan includes 50 notebooks.')).toBeTruthy();
    expect(within(alert).getByText('Upgrade your plan to create more notebooks.')).toBeTruthy();
    expect(inputsOf(view, 'notebooks.create')).toEqual([]);
  });

  it('renames in place and deletes only after asking', async () => {
    const world = notebookWorld({ notebooks: [notebook('nb-1', 'Rates', 3)] });
    const view = await renderShell({
      path: '/notebooks',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Rates' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'New name for Rates' }), {
      target: { value: 'Policy rates' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(inputsOf(view, 'notebooks.rename')).toEqual([{ id: 'nb-1', name: 'Policy rates' }]);
    view.emit({ type: 'changed', store: 'notebooks', keys: ['nb-1'] });
    await screen.findByRole('link', { name: 'Policy rates' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete Policy rates' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Policy rates?' });
    expect(within(dialog).getByText('The notebook and its 3 notes are deleted.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(inputsOf(view, 'notebooks.delete')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Policy rates' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete notebook' }));
    expect(inputsOf(view, 'notebooks.delete')).toEqual([{ id: 'nb-1' }]);
    view.emit({ type: 'changed', store: 'notebooks', keys: ['nb-1'] });
    await screen.findByText(/No notebooks yet/);
  });

  it('is the side navigation’s Notebooks link, no longer a placeholder', async () => {
    const world = notebookWorld();
    await renderShell({ path: '/notebooks', session: SIGNED_IN, handlers: world.handlers });
    await screen.findByText(/No notebooks yet/);
    expect(screen.queryByText('Not available yet')).toBeNull();
    const nav = screen.getByRole('navigation', { name: /main|side/i });
    expect(within(nav).getByRole('link', { name: 'Notebooks' }).getAttribute('href')).toBe(
      '/notebooks',
    );
  });
});

describe('/notebooks/{id}', () => {
  const cited = [
    { type: 'paragraph' as const, children: [{ text: 'Rates held.' }] },
    {
      type: 'list-item' as const,
      children: [{ text: '[1] RBI policy', href: '/preview/rbi/d9?pageNumber=2' }],
    },
  ];

  it('shows the notes with their links, and autosaves a name and text edited in place', async () => {
    const world = notebookWorld({
      notebooks: [notebook('nb-1', 'Rates', 1)],
      notes: [note('n1', 'nb-1', 'Policy', cited)],
    });
    const view = await renderShell({
      path: '/notebooks/nb-1',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    const article = await screen.findByRole('article', { name: 'Policy' });
    expect(within(article).getByText('Rates held.')).toBeTruthy();
    expect(within(article).getByRole('link', { name: '[1] RBI policy' }).getAttribute('href')).toBe(
      '/preview/rbi/d9?pageNumber=2',
    );

    const name = within(article).getByRole('textbox', { name: 'Note name' });
    fireEvent.change(name, { target: { value: 'Policy, June' } });
    fireEvent.blur(name);
    expect(inputsOf(view, 'notes.edit')).toEqual([
      { id: 'n1', name: 'Policy, June', document: cited },
    ]);

    fireEvent.click(within(article).getByRole('button', { name: 'Edit' }));
    const text = within(article).getByRole('textbox', { name: 'Note text' });
    expect((text as HTMLTextAreaElement).value).toBe('Rates held.\n\n[1] RBI policy');
    fireEvent.change(text, { target: { value: 'Rates held at 6.5%.\n\n[1] RBI policy' } });
    fireEvent.blur(text);
    // The edited paragraph is new; the untouched source keeps its link.
    expect(inputsOf(view, 'notes.edit')[1]).toEqual({
      id: 'n1',
      name: 'Policy, June',
      document: [{ type: 'paragraph', children: [{ text: 'Rates held at 6.5%.' }] }, cited[1]],
    });
    // Typing stops: saved by itself after a moment.
    fireEvent.change(text, { target: { value: 'Rates held at 6.5%.' } });
    await waitFor(() => expect(inputsOf(view, 'notes.edit')).toHaveLength(3));
  });

  it('adds and deletes notes (after asking)', async () => {
    const world = notebookWorld({
      notebooks: [notebook('nb-1', 'Rates', 1)],
      notes: [note('n1', 'nb-1', 'Policy', cited)],
    });
    const view = await renderShell({
      path: '/notebooks/nb-1',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'New note' }));
    expect(inputsOf(view, 'notes.create')).toEqual([
      { id: expect.any(String), notebook_id: 'nb-1', name: 'Untitled note', document: [] },
    ]);
    const article = screen.getByRole('article', { name: 'Policy' });
    fireEvent.click(within(article).getByRole('button', { name: 'Delete note' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete Policy?' })).getByRole('button', {
        name: 'Delete note',
      }),
    );
    expect(inputsOf(view, 'notes.delete')).toEqual([{ id: 'n1' }]);
  });

  it('says so for a notebook that is not there', async () => {
    const world = notebookWorld();
    await renderShell({ path: '/notebooks/gone', session: SIGNED_IN, handlers: world.handlers });
    expect(
      await screen.findByText('This notebook does not exist, or it was deleted.'),
    ).toBeTruthy();
  });

  it('previews one note at /preview/needl_notebooks/{id}', async () => {
    const world = notebookWorld({
      notebooks: [notebook('nb-1', 'Rates', 1)],
      notes: [note('n1', 'nb-1', 'Policy', cited)],
    });
    await renderShell({
      path: '/preview/needl_notebooks/n1',
      session: SIGNED_IN,
      handlers: world.handlers,
    });
    const article = await screen.findByRole('article', { name: 'Policy' });
    expect(
      within(article).getByRole('link', { name: 'Open its notebook' }).getAttribute('href'),
    ).toBe('/notebooks/nb-1');
  });
});

describe('the notebook picker ("Add to notebook" in the preview)', () => {
  const preview =
    '/feeds/home?overlay-type=preview&overlay-source=reuters&overlay-category=rss_news&overlay-deeplink=d1';

  it('says "Please create a Notebook", offers to create one, and saves the note into it', async () => {
    const world = notebookWorld();
    const view = await renderShell({ path: preview, session: SIGNED_IN, handlers: world.handlers });
    const panel = await screen.findByTestId('overlay');
    fireEvent.click(await within(panel).findByRole('button', { name: 'Add to notebook' }));
    const picker = within(panel).getByRole('dialog', { name: 'Add to notebook' });
    expect(await within(picker).findByText('Please create a Notebook')).toBeTruthy();
    const field = within(picker).getByPlaceholderText('Find notebook or create one');
    fireEvent.change(field, { target: { value: '   ' } });
    expect(within(picker).queryByRole('button', { name: /^Create/ })).toBeNull();
    fireEvent.change(field, { target: { value: ' Steel ' } });
    fireEvent.click(within(picker).getByRole('button', { name: 'Create Steel' }));
    await waitFor(() => expect(inputsOf(view, 'notebooks.create')).toHaveLength(1));
    const [made] = inputsOf(view, 'notebooks.create') as Array<{ id: string; name: string }>;
    expect(made.name).toBe('Steel');
    await waitFor(() =>
      expect(inputsOf(view, 'notes.create')).toEqual([
        {
          id: expect.any(String),
          notebook_id: made.id,
          name: 'Story 1',
          document: [
            { type: 'heading', children: [{ text: 'Story 1', href: '/preview/reuters/d1' }] },
            { type: 'paragraph', children: [{ text: 'Text 1.' }] },
          ],
        },
      ]),
    );
    expect(await screen.findByText('Note created successfully!')).toBeTruthy();
  });

  it('finds a notebook by name, offers no create for a name there, and says a failure', async () => {
    const world = notebookWorld({
      notebooks: [notebook('nb-0', 'My Notes', 0, true), notebook('nb-1', 'Rates')],
    });
    const view = await renderShell({ path: preview, session: SIGNED_IN, handlers: world.handlers });
    const panel = await screen.findByTestId('overlay');
    fireEvent.click(await within(panel).findByRole('button', { name: 'Add to notebook' }));
    const picker = within(panel).getByRole('dialog', { name: 'Add to notebook' });
    await within(picker).findByRole('button', { name: 'My Notes' });
    fireEvent.change(within(picker).getByPlaceholderText('Find notebook or create one'), {
      target: { value: 'RATES' },
    });
    expect(
      within(picker)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Rates', 'Cancel']);
    world.refuseWith(apiError(500, 'internal', 'boom'));
    fireEvent.click(within(picker).getByRole('button', { name: 'Rates' }));
    expect(inputsOf(view, 'notes.create')).toHaveLength(1);
    expect(await screen.findByText('Add to Notes failed! Please contact us!')).toBeTruthy();
  });
});
