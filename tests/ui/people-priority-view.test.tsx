import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Person } from '../../contract/people';
import { SIGNED_IN, renderShell, setViewportWidth } from './shell-fake-workspace';

beforeEach(() => setViewportWidth(1600));
afterEach(() => cleanup());

/** Issue 21: a person's priority orders the feed's "priority" view; their page says so. */
describe("a person's priority view", () => {
  it('shows the priority as a badge, where it ranks them, and links to the priority view', async () => {
    let anna: Person = {
      people_id: 'anna',
      people_name: 'Anna Bell',
      people_priority: 'MEDIUM',
      contacts: [],
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-01T00:00:00.000Z',
    };
    const view = await renderShell({
      path: '/settings/contacts/anna',
      session: SIGNED_IN,
      handlers: {
        'people.list': () => [anna],
        'people.get': () => anna,
        'people.edit': ({ edit }: { edit: { priority?: Person['people_priority'] } }) => {
          anna = { ...anna, people_priority: edit.priority ?? anna.people_priority };
        },
      },
    });
    expect(await screen.findByText('Medium priority')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'priority view' });
    expect(link.getAttribute('href')).toBe('/feeds/home?sort=priority');
    expect(link.closest('p')?.textContent).toBe(
      "Medium priority Documents that name Anna Bell come after those of high-priority people in your feed's priority view.",
    );

    fireEvent.change(screen.getByLabelText('Priority of Anna Bell'), {
      target: { value: 'HIGH' },
    });
    view.emit({ type: 'changed', store: 'people', keys: ['anna'] });
    expect(await screen.findByText('High priority')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'priority view' }).closest('p')?.textContent).toBe(
      "High priority Documents that name Anna Bell come first in your feed's priority view.",
    );

    fireEvent.click(screen.getByRole('link', { name: 'priority view' }));
    await waitFor(() => expect(view.shell.router.state.location.pathname).toBe('/feeds/home'));
    expect(view.shell.router.state.location.search).toEqual({ sort: 'priority' });
  });
});
