import { z } from 'zod';
import { defineDomain, endpoint, id, op, text } from './define';

/**
 * People and their contacts (002 §3-4, §6-7): a person groups the contacts (an e-mail address,
 * a chat handle, ...) a user hears from, with a priority. The spec names the calls
 * (`/people/{id}`, `/people/edit/{id}`, `/people/contact_info`) and the fields; the shapes, and
 * the list, create and delete calls ("contact create/edit calls: not shown"), are designed here.
 *
 * - GET /people: every person of the user, by name.
 * - POST /people `{ people_id?, people_name, people_priority?, contacts? }`: create (the id is
 *   the client's, the optimistic record's key). A contact belongs to one person of the user at
 *   most: another person's contact is a 409 naming them.
 * - GET /people/{id}: one person (404 for one the user does not hold).
 * - POST /people/edit/{id} `{ name?, priority?, contacts? }`: edit ("edit people takes name,
 *   priority"; `contacts`, when given, is the person's whole new set).
 * - DELETE /people/{id}: delete a person and their contacts.
 * - GET /people/contact_info?contacts=<JSON array>&source=: for each contact (`{ contact_id,
 *   contact_name? }`) of that source, the person holding it, or null.
 *
 * Every write records a 'person' change; "Contact priority change: applied at once, reverted on
 * error" (002 §4): the worker's edit is optimistic with rollback. A person's priority orders
 * the feed's "priority" view (BoardSort `priority`, server/boards/priority.ts): documents carry no
 * sender yet, so a document is linked to the people its title or company names.
 */

/** 002 §9: "Priority values: HIGH, MEDIUM, LOW". */
export const PEOPLE_PRIORITIES = ['HIGH', 'MEDIUM', 'LOW'] as const;
export const PeoplePriority = z.enum(PEOPLE_PRIORITIES, {
  message: 'priority must be one of HIGH, MEDIUM, LOW',
});
export type PeoplePriority = z.infer<typeof PeoplePriority>;
/** A new person's priority when none is given. */
export const DEFAULT_PEOPLE_PRIORITY: PeoplePriority = 'MEDIUM';

/** Limits: a name's length, a person's contacts, a user's people, one contact_info ask. */
export const PERSON_NAME_MAX = 120;
export const MAX_PERSON_CONTACTS = 50;
export const MAX_PEOPLE = 5000;
export const MAX_CONTACT_INFO = 50;

/** What is wrong with a person's name, or null: trimmed, non-empty, at most PERSON_NAME_MAX. */
export const personNameProblem = (name: string): string | null => {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'name must not be empty';
  if (trimmed.length > PERSON_NAME_MAX) return `name must be at most ${PERSON_NAME_MAX} characters`;
  return null;
};

const personName = (field: string) =>
  z
    .string({ message: `${field} must be text` })
    .max(PERSON_NAME_MAX * 4, { message: `${field} must be at most ${PERSON_NAME_MAX} characters` })
    .superRefine((value, ctx) => {
      const problem = personNameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.replace('name', field) });
    })
    .transform((value) => value.trim());

export const Contact = z.object({
  /** The address or handle within its source (an e-mail address, a phone number, ...). */
  contact_id: z.string(),
  contact_name: z.string(),
  /** Where the contact is from: email, whatsapp, slack, ... (lower case). */
  contact_source: z.string(),
});
export type Contact = z.infer<typeof Contact>;

const trimmedId = (field: string) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .min(1, { message: `${field} must not be empty` })
    .max(128, { message: `${field} must be at most 128 characters` });

/** A contact as a request gives it: trimmed; the source lower-cased. */
const ContactInput = z
  .object({
    contact_id: trimmedId('contact_id'),
    contact_name: z
      .string({ message: 'contact_name must be text' })
      .trim()
      .max(PERSON_NAME_MAX, {
        message: `contact_name must be at most ${PERSON_NAME_MAX} characters`,
      }),
    contact_source: trimmedId('contact_source').toLowerCase(),
  })
  .strict();

/** The key two contacts are the same by (source, and the id case-insensitively). */
export const contactKey = (c: { contact_source: string; contact_id: string }) =>
  `${c.contact_source.trim().toLowerCase()}\u0000${c.contact_id.trim().toLowerCase()}`;

const contactList = z
  .array(ContactInput)
  .max(MAX_PERSON_CONTACTS, {
    message: `contacts holds at most ${MAX_PERSON_CONTACTS} contacts`,
  })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      const key = contactKey(c);
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `contacts holds ${c.contact_id} (${c.contact_source}) twice`,
        });
      }
      seen.add(key);
    });
  });

export const Person = z.object({
  people_id: z.string(),
  people_name: z.string(),
  people_priority: PeoplePriority,
  contacts: z.array(Contact),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Person = z.infer<typeof Person>;

export const PeopleList = z.object({ results: z.array(Person) });

export const CreatePersonBody = z
  .object({
    people_id: id('people_id').optional(),
    people_name: personName('people_name'),
    people_priority: PeoplePriority.optional(),
    contacts: contactList.optional(),
  })
  .strict();
export type CreatePersonBody = z.input<typeof CreatePersonBody>;

export const EditPersonBody = z
  .object({
    name: personName('name').optional(),
    priority: PeoplePriority.optional(),
    contacts: contactList.optional(),
  })
  .strict()
  .refine((b) => b.name !== undefined || b.priority !== undefined || b.contacts !== undefined, {
    message: 'give name, priority or contacts to change',
  });
export type EditPersonBody = z.input<typeof EditPersonBody>;

export const DeletePersonResult = z.object({ deleted: z.literal(true) });

/** `contacts` is a JSON array of `{ contact_id, contact_name? }` (002 §7: "contacts (JSON)"). */
export const ContactInfoQuery = z.object({
  contacts: z
    .string({ message: 'contacts is required' })
    .max(20_000, { message: 'contacts must be at most 20000 characters' })
    .transform((raw, ctx) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'contacts must be a JSON array' });
        return z.NEVER;
      }
      const list = z
        .array(
          z.object({
            contact_id: id('contacts[].contact_id'),
            contact_name: text('contacts[].contact_name', PERSON_NAME_MAX).optional(),
          }),
          { message: 'contacts must be a JSON array' },
        )
        .max(MAX_CONTACT_INFO, {
          message: `contacts holds at most ${MAX_CONTACT_INFO} contacts`,
        })
        .safeParse(parsed);
      if (!list.success) {
        ctx.addIssue({ code: 'custom', message: list.error.issues[0]?.message ?? 'bad contacts' });
        return z.NEVER;
      }
      return list.data;
    }),
  source: id('source'),
});

export const ContactInfo = z.object({
  results: z.array(
    z.object({
      contact_id: z.string(),
      contact_name: z.string().nullable(),
      contact_source: z.string(),
      /** The person holding this contact, or null. */
      person: Person.nullable(),
    }),
  ),
});
export type ContactInfo = z.infer<typeof ContactInfo>;

export const people = defineDomain({
  name: 'people',
  endpoints: {
    peopleList: endpoint({
      method: 'get',
      path: '/people',
      auth: true,
      response: PeopleList,
      status: 200,
      summary: "The user's people, by name",
    }),
    createPerson: endpoint({
      method: 'post',
      path: '/people',
      auth: true,
      body: CreatePersonBody,
      response: Person,
      status: 200,
      summary: 'Create a person with their contacts',
    }),
    contactInfo: endpoint({
      method: 'get',
      path: '/people/contact_info',
      auth: true,
      query: ContactInfoQuery,
      response: ContactInfo,
      status: 200,
      summary: 'The person holding each contact of one source',
    }),
    person: endpoint({
      method: 'get',
      path: '/people/{id}',
      auth: true,
      response: Person,
      status: 200,
      summary: 'One person',
    }),
    editPerson: endpoint({
      method: 'post',
      path: '/people/edit/{id}',
      auth: true,
      body: EditPersonBody,
      response: Person,
      status: 200,
      summary: "Edit a person's name, priority or contacts",
    }),
    deletePerson: endpoint({
      method: 'delete',
      path: '/people/{id}',
      auth: true,
      response: DeletePersonResult,
      status: 200,
      summary: 'Delete a person and their contacts',
    }),
  },
  ops: {
    /** The user's people by name, from the mirror (pulled once, then kept by the change feed). */
    'people.list': op(z.object({}).strict(), z.array(Person)),
    /** One person from the mirror (null when the user holds none of that id). */
    'people.get': op(z.object({ id: id('id') }).strict(), Person.nullable()),
    /** Optimistic with rollback; `people_id` is required here (the record's key). */
    'people.create': op(CreatePersonBody.extend({ people_id: id('people_id') }), z.void()),
    /** "Applied at once, reverted on error" (002 §4). */
    'people.edit': op(z.object({ id: id('id'), edit: EditPersonBody }).strict(), z.void()),
    'people.delete': op(z.object({ id: id('id') }).strict(), z.void()),
    /** Asked of the server (online only): whose contacts these are. */
    'people.contactInfo': op(
      z.object({
        source: id('source'),
        contacts: z
          .array(z.object({ contact_id: id('contact_id'), contact_name: z.string().optional() }))
          .max(MAX_CONTACT_INFO),
      }),
      ContactInfo,
    ),
  },
  changes: { person: Person },
  stores: ['people'],
});
