import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tag } from '../../contract/tags';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(() => cleanup());

const tag = (id: string, name: string): Tag => ({
  id,
  name,
  created_at: '2024-01-01T00:00:00.000Z',
});

/** The worker as the Tags Manager sees it: tags with counts, changed by its ops. */
function world(refuse: Error | null = null) {
  let tags = [
    tag('t-steel', 'Steel'),
    tag('t-metals', 'Metals'),
    tag('bookmark', 'needl_internal_bookmark'),
  ];
  let counts: Record<string, number> = { 't-steel': 2, 't-metals': 1, bookmark: 4 };
  return {
    handlers: {
      'tags.list': () => [...tags],
      'tags.counts': () => ({ ...counts }),
      'tags.rename': ({ tag_id, tag: name }: { tag_id: string; tag: string }) => {
        if (refuse) throw refuse;
        tags = tags.map((t) => (t.id === tag_id ? { ...t, name } : t));
      },
      'tags.delete': ({ tag_id }: { tag_id: string }) => {
        tags = tags.filter((t) => t.id !== tag_id);
      },
      'tags.merge': ({ from, into }: { from: string; into: string }) => {
        tags = tags.filter((t) => t.id !== from);
        counts = { ...counts, [into]: (counts[into] ?? 0) + (counts[from] ?? 0) };
        delete counts[from];
      },
    },
  };
}

const rows = async () =>
  within(await screen.findByRole('list', { name: 'Your tags' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('the Tags Manager', () => {
  it('lists the tags (not the bookmark) with their document counts', async () => {
    await renderShell({ path: '/settings/tags', session: SIGNED_IN, handlers: world().handlers });
    await waitFor(async () =>
      expect(await rows()).toEqual([
        expect.stringMatching(/^Steel2 documentsRename/),
        expect.stringMatching(/^Metals1 documentRename/),
      ]),
    );
    expect(screen.getByRole('heading', { name: 'Tags Manager' })).toBeTruthy();
  });

  it('renames, refusing a name another tag has here', async () => {
    const view = await renderShell({
      path: '/settings/tags',
      session: SIGNED_IN,
      handlers: world().handlers,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Steel' }));
    const input = screen.getByLabelText('New name for Steel');
    fireEvent.change(input, { target: { value: 'metals' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'A tag named Metals already exists: merge them instead.',
    );
    fireEvent.change(input, { target: { value: ' Iron ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(view.calls.filter((c) => c.op === 'tags.rename').map((c) => c.input)).toEqual([
      { tag_id: 't-steel', tag: 'Iron' },
    ]);
  });

  it('shows the server’s refusal of a rename', async () => {
    await renderShell({
      path: '/settings/tags',
      session: SIGNED_IN,
      handlers: world(
        apiError(409, 'conflict', 'a tag named "Iron" already exists; merge the two tags instead'),
      ).handlers,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Steel' }));
    fireEvent.change(screen.getByLabelText('New name for Steel'), { target: { value: 'Iron' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'a tag named "Iron" already exists; merge the two tags instead',
    );
  });

  it('deletes after a confirmation naming its count', async () => {
    const view = await renderShell({
      path: '/settings/tags',
      session: SIGNED_IN,
      handlers: world().handlers,
    });
    await waitFor(async () => expect((await rows())[0]).toContain('2 documents'));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Steel' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the tag Steel?' });
    expect(dialog.textContent).toContain(
      'It is on 2 documents. The documents stay; only this tag comes off them.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete tag' }));
    expect(view.calls.filter((c) => c.op === 'tags.delete').map((c) => c.input)).toEqual([
      { tag_id: 't-steel' },
    ]);
  });

  it('merges two tags after a confirmation', async () => {
    const view = await renderShell({
      path: '/settings/tags',
      session: SIGNED_IN,
      handlers: world().handlers,
    });
    await waitFor(async () => expect((await rows())[0]).toContain('2 documents'));
    fireEvent.change(screen.getByLabelText('Merge Steel into'), { target: { value: 't-metals' } });
    const dialog = screen.getByRole('dialog', { name: 'Merge Steel into Metals?' });
    expect(dialog.textContent).toContain(
      'The 2 documents tagged Steel will be tagged Metals, and Steel is deleted.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Merge tags' }));
    expect(view.calls.filter((c) => c.op === 'tags.merge').map((c) => c.input)).toEqual([
      { from: 't-steel', into: 't-metals' },
    ]);
    view.emit({ type: 'changed', store: 'tags', keys: ['t-steel'] });
    await waitFor(async () =>
      expect(await rows()).toEqual([expect.stringMatching(/^Metals3 documentsRename/)]),
    );
  });
});
