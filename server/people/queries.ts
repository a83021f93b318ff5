import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  contactKey,
  DEFAULT_PEOPLE_PRIORITY,
  MAX_PEOPLE,
  type Contact,
  type PeoplePriority,
  type Person,
} from '../../contract/people';
import type { Db } from '../db/schema';
import { ApiError, badRequest } from '../errors';
import { lockUserRow, recordChange } from '../sync';
import { iso } from '../time';

const notFound = (id: string) => new ApiError(404, 'not_found', `no such person: ${id}`);

type PersonRow = {
  id: string;
  name: string;
  priority: string;
  created_at: string;
  updated_at: string;
};

/** The people of `rows` with their contacts (in the order each person's list keeps). */
async function withContacts(db: Db, userId: string, rows: PersonRow[]): Promise<Person[]> {
  if (rows.length === 0) return [];
  const contacts = await db
    .selectFrom('people_contacts')
    .select(['person_id', 'source', 'contact_id', 'contact_name', 'position'])
    .where('user_id', '=', userId)
    .where(
      'person_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('person_id')
    .orderBy('position')
    .execute();
  const byPerson = new Map<string, Contact[]>(rows.map((r) => [r.id, []]));
  for (const c of contacts) {
    byPerson.get(c.person_id)?.push({
      contact_id: c.contact_id,
      contact_name: c.contact_name,
      contact_source: c.source,
    });
  }
  return rows.map((r) => ({
    people_id: r.id,
    people_name: r.name,
    people_priority: r.priority as PeoplePriority,
    contacts: byPerson.get(r.id) ?? [],
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

const PERSON_COLUMNS = ['id', 'name', 'priority', 'created_at', 'updated_at'] as const;

/** Every person of the user, by name (case-insensitively), then id. */
export async function listPeople(db: Db, userId: string): Promise<Person[]> {
  const rows = await db
    .selectFrom('people')
    .select(PERSON_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
  return withContacts(db, userId, rows);
}

/** One person of the user; 404 for any other. */
export async function getPerson(db: Db, userId: string, id: string): Promise<Person> {
  const row = await db
    .selectFrom('people')
    .select(PERSON_COLUMNS)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(id);
  return (await withContacts(db, userId, [row]))[0];
}

/**
 * Makes `contacts` the person's whole set; 409 naming the holder when another person of the
 * user holds one of them.
 */
async function setContacts(db: Db, userId: string, personId: string, contacts: Contact[]) {
  if (contacts.length > 0) {
    const held = await db
      .selectFrom('people_contacts as c')
      .innerJoin('people as p', (j) =>
        j.onRef('p.user_id', '=', 'c.user_id').onRef('p.id', '=', 'c.person_id'),
      )
      .select(['c.source', 'c.contact_key', 'c.contact_id', 'p.name'])
      .where('c.user_id', '=', userId)
      .where('c.person_id', '<>', personId)
      .where(
        'c.contact_key',
        'in',
        contacts.map((c) => c.contact_id.toLowerCase()),
      )
      .execute();
    const wanted = new Set(contacts.map(contactKey));
    const clash = held.find((h) =>
      wanted.has(contactKey({ contact_source: h.source, contact_id: h.contact_key })),
    );
    if (clash) {
      throw new ApiError(
        409,
        'conflict',
        `contact ${clash.contact_id} (${clash.source}) already belongs to ${clash.name}`,
      );
    }
  }
  await db
    .deleteFrom('people_contacts')
    .where('user_id', '=', userId)
    .where('person_id', '=', personId)
    .execute();
  if (contacts.length > 0) {
    await db
      .insertInto('people_contacts')
      .values(
        contacts.map((c, position) => ({
          user_id: userId,
          person_id: personId,
          source: c.contact_source,
          contact_key: c.contact_id.toLowerCase(),
          contact_id: c.contact_id,
          contact_name: c.contact_name,
          position,
        })),
      )
      .execute();
  }
}

const recordPerson = (db: Db, userId: string, person: Person, now: number) =>
  recordChange(
    db,
    userId,
    { entity: 'person', entity_id: person.people_id, op: 'upsert', data: person },
    now,
  );

/** Creates a person (the client's id when given; 409 when the user already holds it). */
export async function createPerson(
  db: Db,
  userId: string,
  input: {
    people_id?: string;
    people_name: string;
    people_priority?: PeoplePriority;
    contacts?: Contact[];
  },
  now: number,
): Promise<Person> {
  await lockUserRow(db, userId);
  const count = await db
    .selectFrom('people')
    .select(sql<number>`cast(count(*) as integer)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_PEOPLE) throw badRequest(`a user holds at most ${MAX_PEOPLE} people`);
  const id = input.people_id ?? randomUUID();
  const taken = await db
    .selectFrom('people')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (taken) throw new ApiError(409, 'conflict', `person id ${id} is already used`);
  const at = iso(now);
  await db
    .insertInto('people')
    .values({
      user_id: userId,
      id,
      name: input.people_name,
      priority: input.people_priority ?? DEFAULT_PEOPLE_PRIORITY,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await setContacts(db, userId, id, input.contacts ?? []);
  const person = await getPerson(db, userId, id);
  await recordPerson(db, userId, person, now);
  return person;
}

/** Edits a person's name, priority or contacts; 404 for a person the user does not hold. */
export async function editPerson(
  db: Db,
  userId: string,
  id: string,
  edit: { name?: string; priority?: PeoplePriority; contacts?: Contact[] },
  now: number,
): Promise<Person> {
  await lockUserRow(db, userId);
  const before = await getPerson(db, userId, id);
  if (edit.contacts) await setContacts(db, userId, id, edit.contacts);
  await db
    .updateTable('people')
    .set({
      name: edit.name ?? before.people_name,
      priority: edit.priority ?? before.people_priority,
      updated_at: iso(now),
    })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();
  const person = await getPerson(db, userId, id);
  await recordPerson(db, userId, person, now);
  return person;
}

/** Deletes a person and their contacts; 404 for a person the user does not hold. */
export async function deletePerson(db: Db, userId: string, id: string, now: number) {
  await lockUserRow(db, userId);
  await getPerson(db, userId, id);
  await db
    .deleteFrom('people_contacts')
    .where('user_id', '=', userId)
    .where('person_id', '=', id)
    .execute();
  await db.deleteFrom('people').where('user_id', '=', userId).where('id', '=', id).execute();
  await recordChange(
    db,
    userId,
    { entity: 'person', entity_id: id, op: 'delete', data: null },
    now,
  );
}

/** For each contact of `source`, the person of the user holding it, or null. */
export async function contactInfo(
  db: Db,
  userId: string,
  source: string,
  contacts: ReadonlyArray<{ contact_id: string; contact_name?: string }>,
) {
  const src = source.trim().toLowerCase();
  const keys = [...new Set(contacts.map((c) => c.contact_id.trim().toLowerCase()))];
  const held =
    keys.length === 0
      ? []
      : await db
          .selectFrom('people_contacts')
          .select(['contact_key', 'person_id'])
          .where('user_id', '=', userId)
          .where('source', '=', src)
          .where('contact_key', 'in', keys)
          .execute();
  const personIds = [...new Set(held.map((h) => h.person_id))];
  const rows =
    personIds.length === 0
      ? []
      : await db
          .selectFrom('people')
          .select(PERSON_COLUMNS)
          .where('user_id', '=', userId)
          .where('id', 'in', personIds)
          .execute();
  const people = new Map((await withContacts(db, userId, rows)).map((p) => [p.people_id, p]));
  const holder = new Map(held.map((h) => [h.contact_key, people.get(h.person_id) ?? null]));
  return {
    results: contacts.map((c) => ({
      contact_id: c.contact_id,
      contact_name: c.contact_name ?? null,
      contact_source: src,
      person: holder.get(c.contact_id.trim().toLowerCase()) ?? null,
    })),
  };
}
