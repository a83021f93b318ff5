import { DEFAULT_PEOPLE_PRIORITY, people, type Person } from '../../contract/people';
import { sessionChanged } from '../api-errors';
import type { PatchItem } from '../mirror';
import { defineWorkerDomain, type DomainContext, type StoreOf } from '../registry';

/**
 * People and contacts in the mirror. Store 'people' holds the user's people by id, and one
 * record under LIST_KEY (no id can equal it) saying the list was pulled whole. Pulled once
 * (GET /people), then kept by the change feed ('person') and by the user's own writes:
 * optimistic through the outbox in one queue, rolled back with the server's message when it
 * refuses ("Contact priority change: applied at once, reverted on error", 002 §4).
 */

type S = StoreOf<typeof people>;
type Ctx = DomainContext<S>;

const PEOPLE = 'people' satisfies S;
/** Not an id (ids are 1 to 128 visible characters). */
export const PEOPLE_LIST_KEY = '\u0000list';

type PeopleList = { people_id: typeof PEOPLE_LIST_KEY; complete: boolean };
const isPerson = (p: Person | PeopleList): p is Person => p.people_id !== PEOPLE_LIST_KEY;

/** The people pulled whole (people the server no longer holds go). */
const pullPeople = (ctx: Ctx) =>
  ctx.reads.once('people.list', async (owner) => {
    const mirror = await ctx.mirror;
    const answer = await ctx.client.call('peopleList', { background: true, signal: ctx.signal() });
    const held = new Set(await mirror.keys(PEOPLE));
    const items: PatchItem<S>[] = answer.results.map((person) => {
      held.delete(person.people_id);
      return { store: PEOPLE, key: person.people_id, value: person };
    });
    for (const gone of held) if (gone !== PEOPLE_LIST_KEY) items.push({ store: PEOPLE, key: gone });
    const list: PeopleList = { people_id: PEOPLE_LIST_KEY, complete: true };
    items.push({ store: PEOPLE, key: PEOPLE_LIST_KEY, value: list });
    if (!(await ctx.reads.store(items, owner))) throw sessionChanged('people.list');
  });

/** Pulls the list when the mirror has not yet: awaited the first time (offline: what it has). */
async function ensure(ctx: Ctx) {
  const mirror = await ctx.mirror;
  const list = await mirror.get<PeopleList>(PEOPLE, PEOPLE_LIST_KEY);
  if (list?.complete) return;
  await pullPeople(ctx).catch(() => {});
}

/** By name (case-insensitively), then id: the server's order. */
const byName = (a: Person, b: Person) => {
  const x = a.people_name.toLowerCase();
  const y = b.people_name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.people_id < b.people_id ? -1 : a.people_id > b.people_id ? 1 : 0;
};

export const peopleDomain = defineWorkerDomain(people, {
  stores: { people: { keyPath: 'people_id', version: 1 } },
  reads: {
    async 'people.list'(ctx) {
      await ensure(ctx);
      const all = await (await ctx.mirror).getAll<Person | PeopleList>(PEOPLE);
      return all.filter(isPerson).sort(byName);
    },
    async 'people.get'(ctx, { id }) {
      await ensure(ctx);
      if (id === PEOPLE_LIST_KEY) return null;
      return (await (await ctx.mirror).get<Person>(PEOPLE, id)) ?? null;
    },
    'people.contactInfo': (ctx, { source, contacts }) =>
      ctx.client.call('contactInfo', {
        query: { source, contacts: JSON.stringify(contacts) },
        signal: ctx.signal(),
      }),
  },
  mutations: {
    'people.create': {
      endpoint: 'createPerson',
      orderKey: () => 'people',
      optimistic(ctx, input) {
        const at = new Date(ctx.clock.now()).toISOString();
        const person: Person = {
          people_id: input.people_id,
          people_name: input.people_name,
          people_priority: input.people_priority ?? DEFAULT_PEOPLE_PRIORITY,
          contacts: input.contacts ?? [],
          created_at: at,
          updated_at: at,
        };
        return [{ store: PEOPLE, key: person.people_id, value: person }];
      },
      confirm: (_input, result) => [{ store: PEOPLE, key: result.people_id, value: result }],
      deferred: () => undefined,
    },
    'people.edit': {
      endpoint: 'editPerson',
      orderKey: () => 'people',
      params: ({ id }) => ({ id }),
      body: ({ edit }) => edit,
      async optimistic(ctx, { id, edit }) {
        const held = await (await ctx.mirror).get<Person>(PEOPLE, id);
        if (!held) return [];
        const next: Person = {
          ...held,
          people_name: edit.name ?? held.people_name,
          people_priority: edit.priority ?? held.people_priority,
          contacts: edit.contacts ?? held.contacts,
        };
        return [{ store: PEOPLE, key: id, value: next }];
      },
      confirm: (_input, result) => [{ store: PEOPLE, key: result.people_id, value: result }],
      deferred: () => undefined,
    },
    'people.delete': {
      endpoint: 'deletePerson',
      orderKey: () => 'people',
      params: ({ id }) => ({ id }),
      body: () => undefined,
      optimistic: (_ctx, { id }) => [{ store: PEOPLE, key: id }],
      deferred: () => undefined,
    },
  },
  changes: {
    person(change, tx) {
      if (change.op === 'upsert') tx.put(PEOPLE, change.data.people_id, change.data);
      else tx.put(PEOPLE, change.id, undefined);
    },
  },
  async refresh(ctx) {
    await pullPeople(ctx);
  },
});
