import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesOf, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * People and contacts (contract/people.ts): create, list, read, edit (priority, name,
 * contacts), contact_info and delete, every call scoped to the caller, on every backend.
 */
describe.each(STORAGES)('people on %s', (storage) => {
  let h: Harness;
  let a: { token: string };
  let b: { token: string };
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    a = await newUser(h);
    b = await newUser(h, 'Grace Hopper');
  });
  afterAll(async () => {
    await h?.close();
  });

  const create = (token: string, body: unknown) => h.call('POST', '/people', { token, body });
  const ravi = {
    people_id: 'p-ravi',
    people_name: '  Ravi Menon ',
    people_priority: 'HIGH',
    contacts: [
      { contact_id: 'Ravi@Example.com', contact_name: 'Ravi', contact_source: 'Email' },
      { contact_id: '+91 98100 00001', contact_name: 'Ravi M', contact_source: 'whatsapp' },
    ],
  };

  it('creates a person with contacts, lists and reads them, recording a change', async () => {
    const made = await create(a.token, ravi);
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      people_id: 'p-ravi',
      people_name: 'Ravi Menon',
      people_priority: 'HIGH',
      contacts: [
        { contact_id: 'Ravi@Example.com', contact_name: 'Ravi', contact_source: 'email' },
        { contact_id: '+91 98100 00001', contact_name: 'Ravi M', contact_source: 'whatsapp' },
      ],
      created_at: '2025-03-03T10:00:00.000Z',
      updated_at: '2025-03-03T10:00:00.000Z',
    });
    // No priority given: MEDIUM.
    const anna = await create(a.token, { people_id: 'p-anna', people_name: 'anna Bell' });
    expect(anna.body.people_priority).toBe('MEDIUM');
    const list = await h.call('GET', '/people', { token: a.token });
    expect(list.body.results.map((p: { people_name: string }) => p.people_name)).toEqual([
      'anna Bell',
      'Ravi Menon',
    ]);
    const one = await h.call('GET', '/people/p-ravi', { token: a.token });
    expect(one.body).toEqual(made.body);
    const changes = (await changesOf(h, a.token)).filter((c) => c.entity === 'person');
    expect(changes.map((c) => [c.entity_id, c.op])).toEqual([
      ['p-ravi', 'upsert'],
      ['p-anna', 'upsert'],
    ]);
  });

  it('edits priority, name and contacts', async () => {
    const low = await h.call('POST', '/people/edit/p-ravi', {
      token: a.token,
      body: { priority: 'LOW' },
    });
    expect(low.status).toBe(200);
    expect(low.body.people_priority).toBe('LOW');
    expect(low.body.people_name).toBe('Ravi Menon');
    expect(low.body.contacts).toHaveLength(2);
    const renamed = await h.call('POST', '/people/edit/p-ravi', {
      token: a.token,
      body: {
        name: 'Ravi K. Menon',
        contacts: [
          { contact_id: 'ravi@example.com', contact_name: 'RKM', contact_source: 'email' },
        ],
      },
    });
    expect(renamed.body).toMatchObject({
      people_name: 'Ravi K. Menon',
      people_priority: 'LOW',
      contacts: [{ contact_id: 'ravi@example.com', contact_name: 'RKM', contact_source: 'email' }],
    });
  });

  it('answers contact_info with the person holding each contact', async () => {
    const contacts = JSON.stringify([
      { contact_id: 'RAVI@example.com', contact_name: 'R' },
      { contact_id: 'nobody@example.com' },
    ]);
    const res = await h.call(
      'GET',
      `/people/contact_info?source=email&contacts=${encodeURIComponent(contacts)}`,
      { token: a.token },
    );
    expect(res.status).toBe(200);
    expect(
      res.body.results.map((r: { contact_id: string; person: { people_id: string } | null }) => [
        r.contact_id,
        r.person?.people_id ?? null,
      ]),
    ).toEqual([
      ['RAVI@example.com', 'p-ravi'],
      ['nobody@example.com', null],
    ]);
    const bad = await h.call('GET', '/people/contact_info?source=email&contacts=%5B', {
      token: a.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('contacts must be a JSON array');
  });

  it('refuses bad input with a message naming what is wrong', async () => {
    const empty = await create(a.token, { people_name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('people_name must not be empty');
    const priority = await h.call('POST', '/people/edit/p-ravi', {
      token: a.token,
      body: { priority: 'URGENT' },
    });
    expect(priority.status).toBe(400);
    expect(priority.body.message).toContain('priority must be one of HIGH, MEDIUM, LOW');
    const nothing = await h.call('POST', '/people/edit/p-ravi', { token: a.token, body: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toContain('give name, priority or contacts to change');
    // A contact another person holds: 409 naming them.
    const clash = await h.call('POST', '/people/edit/p-anna', {
      token: a.token,
      body: {
        contacts: [{ contact_id: 'Ravi@example.com', contact_name: 'x', contact_source: 'email' }],
      },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(
      'contact ravi@example.com (email) already belongs to Ravi K. Menon',
    );
    const twice = await create(a.token, { people_id: 'p-anna', people_name: 'Again' });
    expect(twice.status).toBe(409);
  });

  it('lets another user read, list or change none of it', async () => {
    expect((await h.call('GET', '/people', { token: b.token })).body).toEqual({ results: [] });
    expect((await h.call('GET', '/people/p-ravi', { token: b.token })).status).toBe(404);
    const edit = await h.call('POST', '/people/edit/p-ravi', {
      token: b.token,
      body: { priority: 'HIGH' },
    });
    expect(edit.status).toBe(404);
    expect((await h.call('DELETE', '/people/p-ravi', { token: b.token })).status).toBe(404);
    const contacts = encodeURIComponent(JSON.stringify([{ contact_id: 'ravi@example.com' }]));
    const info = await h.call('GET', `/people/contact_info?source=email&contacts=${contacts}`, {
      token: b.token,
    });
    expect(info.body.results[0].person).toBeNull();
    // B may hold the same contact and the same id as their own.
    const own = await create(b.token, {
      people_id: 'p-ravi',
      people_name: 'My Ravi',
      contacts: [{ contact_id: 'ravi@example.com', contact_name: 'R', contact_source: 'email' }],
    });
    expect(own.status).toBe(200);
    expect((await changesOf(h, b.token)).filter((c) => c.entity === 'person')).toHaveLength(1);
    // A's person is as it was.
    const mine = await h.call('GET', '/people/p-ravi', { token: a.token });
    expect(mine.body.people_name).toBe('Ravi K. Menon');
    expect(mine.body.people_priority).toBe('LOW');
    expect((await h.call('GET', '/people', { token: '' })).status).toBe(401);
  });

  it('deletes a person with their contacts', async () => {
    const gone = await h.call('DELETE', '/people/p-ravi', { token: a.token });
    expect(gone.body).toEqual({ deleted: true });
    expect((await h.call('GET', '/people/p-ravi', { token: a.token })).status).toBe(404);
    // The contact is free again.
    const free = await h.call('POST', '/people/edit/p-anna', {
      token: a.token,
      body: {
        contacts: [{ contact_id: 'ravi@example.com', contact_name: 'R', contact_source: 'email' }],
      },
    });
    expect(free.status).toBe(200);
    const last = (await changesOf(h, a.token)).filter((c) => c.entity === 'person').slice(-2);
    expect(last.map((c) => [c.entity_id, c.op])).toEqual([
      ['p-ravi', 'delete'],
      ['p-anna', 'upsert'],
    ]);
  });
});
