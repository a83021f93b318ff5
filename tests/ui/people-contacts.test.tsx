import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Person } from '../../contract/people';
import { SIGNED_IN, apiError, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(() => cleanup());

const person = (id: string, name: string, priority: Person['people_priority']): Person => ({
  people_id: id,
  people_name: name,
  people_priority: priority,
  contacts: [{ contact_id: `${id}@example.com`, contact_name: name, contact_source: 'email' }],
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
});

/** The worker as the contacts screens see it: people, changed by the people ops. */
function world(opts: { refuse?: Error } = {}) {
  let people = [person('anna', 'Anna Bell', 'MEDIUM'), person('ravi', 'Ravi Menon', 'LOW')];
  return {
    get people() {
      return people;
    },
    handlers: {
      'people.list': () => [...people],
      'people.get': ({ id }: { id: string }) => people.find((p) => p.people_id === id) ?? null,
      'people.edit': ({
        id,
        edit,
      }: {
        id: string;
        edit: {
          name?: string;
          priority?: Person['people_priority'];
          contacts?: Person['contacts'];
        };
      }) => {
        if (opts.refuse) throw opts.refuse;
        people = people.map((p) =>
          p.people_id === id
            ? {
                ...p,
                people_name: edit.name ?? p.people_name,
                people_priority: edit.priority ?? p.people_priority,
                contacts: edit.contacts ?? p.contacts,
              }
            : p,
        );
      },
      'people.create': (input: { people_id: string; people_name: string }) => {
        people = [
          ...people,
          { ...person(input.people_id, input.people_name, 'MEDIUM'), contacts: [] },
        ];
      },
      'people.delete': ({ id }: { id: string }) => {
        people = people.filter((p) => p.people_id !== id);
      },
    },
  };
}

const prioritySelect = (name: string) =>
  screen.getByLabelText(`Priority of ${name}`) as HTMLSelectElement;

describe('contacts', () => {
  it('lists people with their contacts and changes a priority at once', async () => {
    const w = world();
    const view = await renderShell({
      path: '/settings/contacts',
      session: SIGNED_IN,
      handlers: w.handlers,
    });
    const list = await screen.findByRole('list', { name: 'People' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Anna Bell', '/settings/contacts/anna'],
      ['Ravi Menon', '/settings/contacts/ravi'],
    ]);
    expect(within(list).getByText('ravi@example.com (email)')).toBeTruthy();
    expect(prioritySelect('Ravi Menon').value).toBe('LOW');
    fireEvent.change(prioritySelect('Ravi Menon'), { target: { value: 'HIGH' } });
    expect(prioritySelect('Ravi Menon').value).toBe('HIGH');
    expect(view.calls.filter((c) => c.op === 'people.edit').map((c) => c.input)).toEqual([
      { id: 'ravi', edit: { priority: 'HIGH' } },
    ]);
    expect(w.people.find((p) => p.people_id === 'ravi')?.people_priority).toBe('HIGH');
  });

  it('puts the priority back with the message when the worker refuses', async () => {
    const w = world({ refuse: apiError(404, 'not_found', 'no such person: ravi') });
    await renderShell({ path: '/settings/contacts', session: SIGNED_IN, handlers: w.handlers });
    await screen.findByRole('list', { name: 'People' });
    fireEvent.change(prioritySelect('Ravi Menon'), { target: { value: 'HIGH' } });
    expect((await screen.findByRole('alert')).textContent).toBe('no such person: ravi');
    expect(prioritySelect('Ravi Menon').value).toBe('LOW');
  });

  it('adds a person with a contact', async () => {
    const w = world();
    const view = await renderShell({
      path: '/settings/contacts',
      session: SIGNED_IN,
      handlers: w.handlers,
    });
    await screen.findByRole('list', { name: 'People' });
    const contact = screen.getByRole('form', { name: 'Add contact' });
    fireEvent.change(within(contact).getByLabelText('Address or handle'), {
      target: { value: ' zed@example.com ' },
    });
    fireEvent.click(within(contact).getByRole('button', { name: 'Add contact' }));
    expect(
      within(screen.getByRole('list', { name: 'Contacts to add' })).getByText(
        'zed@example.com (email)',
      ),
    ).toBeTruthy();
    const form = screen.getByRole('form', { name: 'New person' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add person' }));
    expect(within(form).getByRole('alert').textContent).toBe('Enter a name.');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: ' Zed Zee ' } });
    fireEvent.change(within(form).getByLabelText('Priority'), { target: { value: 'HIGH' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add person' }));
    const created = view.calls.filter((c) => c.op === 'people.create').map((c) => c.input);
    expect(created).toEqual([
      {
        people_id: expect.any(String),
        people_name: 'Zed Zee',
        people_priority: 'HIGH',
        contacts: [{ contact_id: 'zed@example.com', contact_name: '', contact_source: 'email' }],
      },
    ]);
    view.emit({ type: 'changed', store: 'people', keys: null });
    expect(await screen.findByRole('link', { name: 'Zed Zee' })).toBeTruthy();
  });

  it('opens a person: renames, removes a contact and deletes after asking', async () => {
    const w = world();
    const view = await renderShell({
      path: '/settings/contacts/ravi',
      session: SIGNED_IN,
      handlers: w.handlers,
    });
    const contacts = await screen.findByRole('list', { name: 'Contacts of Ravi Menon' });
    // The header and the last breadcrumb read the person's name, not the id.
    expect(await screen.findByRole('heading', { level: 1, name: 'Ravi Menon' })).toBeTruthy();
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Home', 'Settings', 'Contacts', 'Ravi Menon']);
    fireEvent.click(
      within(contacts).getByRole('button', { name: 'Remove ravi@example.com (email)' }),
    );
    const form = screen.getByRole('form', { name: 'Name' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Ravi K' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save name' }));
    expect(view.calls.filter((c) => c.op === 'people.edit').map((c) => c.input)).toEqual([
      { id: 'ravi', edit: { contacts: [] } },
      { id: 'ravi', edit: { name: 'Ravi K' } },
    ]);
    view.emit({ type: 'changed', store: 'people', keys: ['ravi'] });
    expect(await screen.findByText('No contacts yet.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete person' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Ravi K?' });
    expect(dialog.textContent).toContain('Ravi K and their 0 contacts are deleted.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete person' }));
    await waitFor(() =>
      expect(view.shell.router.state.location.pathname).toBe('/settings/contacts'),
    );
    expect(view.calls.filter((c) => c.op === 'people.delete').map((c) => c.input)).toEqual([
      { id: 'ravi' },
    ]);
    await act(async () => {});
    expect(await screen.findByRole('link', { name: 'Anna Bell' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Ravi K' })).toBeNull();
  });
});
