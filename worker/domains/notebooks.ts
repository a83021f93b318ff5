import { notebooks, type Note, type Notebook } from '../../contract/notebooks';
import { sessionChanged } from '../api-errors';
import type { Mirror, PatchItem } from '../mirror';
import { defineWorkerDomain, type DomainContext, type StoreOf } from '../registry';

/**
 * Notebooks and notes in the mirror. Store 'notebooks' holds the user's notebooks by id; store
 * 'notes' every note by id, indexed by notebook. Each store's progress is one record under
 * LIST_KEY, which no id can equal. Both are pulled once (GET /notebook/list, GET /note/list by
 * cursor), then kept by the change feed ('notebook', 'note') and by the user's own writes:
 * optimistic through the outbox, in one queue (a notebook made in the picker is created before
 * the note saved into it), rolled back with the server's message when it refuses. A notebook's
 * `notes` count is read from the mirror's index, so an optimistic note counts at once.
 */

type S = StoreOf<typeof notebooks>;
type Ctx = DomainContext<S>;

const NOTEBOOKS = 'notebooks' satisfies S;
const NOTES = 'notes' satisfies S;
/** Not an id (ids are 1 to 128 visible characters). */
export const LIST_KEY = '\u0000list';
const BY_NOTEBOOK = 'by_notebook';
const PAGE = 500;
/** Notes one notebook's removal drops from the mirror, at most. */
const NOTES_SCAN = 100_000;

type NotebooksList = { notebook_id: typeof LIST_KEY; complete: boolean };
type NotesList = {
  id: typeof LIST_KEY;
  notebook_id: typeof LIST_KEY;
  cursor: string | null;
  complete: boolean;
};

const isNotebook = (n: Notebook | NotebooksList): n is Notebook => n.notebook_id !== LIST_KEY;
const nowIso = (ctx: Ctx) => new Date(ctx.clock.now()).toISOString();

/** The notebooks pulled whole (notebooks the server no longer holds go). */
const pullNotebooks = (ctx: Ctx) =>
  ctx.reads.once('notebooks.list', async (owner) => {
    const mirror = await ctx.mirror;
    const answer = await ctx.client.call('listNotebooks', {
      query: {},
      background: true,
      signal: ctx.signal(),
    });
    const held = new Set(await mirror.keys(NOTEBOOKS));
    const items: PatchItem<S>[] = answer.results.map((notebook) => {
      held.delete(notebook.notebook_id);
      return { store: NOTEBOOKS, key: notebook.notebook_id, value: notebook };
    });
    for (const gone of held) if (gone !== LIST_KEY) items.push({ store: NOTEBOOKS, key: gone });
    const list: NotebooksList = { notebook_id: LIST_KEY, complete: true };
    items.push({ store: NOTEBOOKS, key: LIST_KEY, value: list });
    if (!(await ctx.reads.store(items, owner))) throw sessionChanged('notebooks.list');
  });

/** The notes pulled from where the mirror left them until the server has no more. */
const pullNotes = (ctx: Ctx) =>
  ctx.reads.once('notes.pull', async (owner) => {
    const mirror = await ctx.mirror;
    let list = (await mirror.get<NotesList>(NOTES, LIST_KEY)) ?? {
      id: LIST_KEY,
      notebook_id: LIST_KEY,
      cursor: null,
      complete: false,
    };
    for (;;) {
      const page = await ctx.client.call('listNotes', {
        query: { limit: PAGE, ...(list.cursor !== null ? { after: list.cursor } : {}) },
        background: true,
        signal: ctx.signal(),
      });
      list = { ...list, cursor: page.cursor ?? list.cursor, complete: !page.has_more };
      const items: PatchItem<S>[] = page.notes.map((note) => ({
        store: NOTES,
        key: note.id,
        value: note,
      }));
      items.push({ store: NOTES, key: LIST_KEY, value: list });
      if (!(await ctx.reads.store(items, owner))) throw sessionChanged('notes');
      if (!page.has_more || page.notes.length === 0) return;
    }
  });

/** Pulls what the mirror does not hold yet: awaited the first time (offline: what it has). */
async function ensure(ctx: Ctx, store: typeof NOTEBOOKS | typeof NOTES) {
  const mirror = await ctx.mirror;
  const list = await mirror.get<{ complete: boolean }>(store, LIST_KEY);
  if (list?.complete) return;
  const pulled = store === NOTEBOOKS ? pullNotebooks(ctx) : pullNotes(ctx);
  if (!list) await pulled.catch(() => {});
  else ctx.track(pulled.catch(() => {}));
}

const notesOf = (mirror: Mirror<S>, notebookId: string, limit: number) =>
  mirror.transact([NOTES], (tx) =>
    tx.indexRange<Note>(NOTES, BY_NOTEBOOK, { lower: notebookId, upper: notebookId }, limit),
  );

/** The writes that drop every mirrored note of a notebook. */
async function dropNotes(mirror: Mirror<S>, notebookId: string): Promise<PatchItem<S>[]> {
  return (await notesOf(mirror, notebookId, NOTES_SCAN)).map((note) => ({
    store: NOTES,
    key: note.id,
  }));
}

const newestFirst = (a: Note, b: Note) =>
  a.created_at > b.created_at ? -1 : a.created_at < b.created_at ? 1 : a.id > b.id ? -1 : 1;

/** The default notebook first, then oldest first (as GET /notebook/list answers). */
const listOrder = (a: Notebook, b: Notebook) =>
  a.default !== b.default
    ? a.default
      ? -1
      : 1
    : a.notebook_created_at < b.notebook_created_at
      ? -1
      : a.notebook_created_at > b.notebook_created_at
        ? 1
        : a.notebook_id < b.notebook_id
          ? -1
          : 1;

export const notebooksDomain = defineWorkerDomain(notebooks, {
  stores: {
    notebooks: { keyPath: 'notebook_id', version: 1 },
    notes: {
      keyPath: 'id',
      indexes: { [BY_NOTEBOOK]: { keyPath: 'notebook_id' } },
      version: 1,
    },
  },
  reads: {
    async 'notebooks.list'(ctx) {
      await ensure(ctx, NOTEBOOKS);
      await ensure(ctx, NOTES);
      const mirror = await ctx.mirror;
      const all = (await mirror.getAll<Notebook | NotebooksList>(NOTEBOOKS)).filter(isNotebook);
      // Counted in the mirror: an optimistic note counts at once, a change feed's too.
      const counts = await mirror.transact([NOTES], async (tx) =>
        Promise.all(
          all.map(
            async (n) =>
              (
                await tx.indexRange<Note>(
                  NOTES,
                  BY_NOTEBOOK,
                  { lower: n.notebook_id, upper: n.notebook_id },
                  NOTES_SCAN,
                )
              ).length,
          ),
        ),
      );
      return all.map((n, i) => ({ ...n, notes: counts[i] })).sort(listOrder);
    },
    async 'notebooks.gate'(ctx) {
      try {
        const answer = await ctx.client.call('pricingMessaging', { signal: ctx.signal() });
        return answer.results.add_notebook ?? { isEligible: true, message: null };
      } catch {
        return { isEligible: true, message: null };
      }
    },
    async 'notes.list'(ctx, { notebook_id, limit }) {
      await ensure(ctx, NOTES);
      const notes = await notesOf(await ctx.mirror, notebook_id, NOTES_SCAN);
      return notes.sort(newestFirst).slice(0, limit);
    },
    async 'notes.get'(ctx, { id }) {
      await ensure(ctx, NOTES);
      return (await (await ctx.mirror).get<Note>(NOTES, id)) ?? null;
    },
  },
  mutations: {
    'notebooks.create': {
      endpoint: 'createNotebook',
      // One queue for every notebook and note write: a notebook reaches the server before a
      // note saved into it.
      orderKey: () => 'notebooks',
      body: ({ id, name }) => ({ id, name }),
      optimistic: (ctx, { id, name }) => {
        const at = nowIso(ctx);
        const record: Notebook = {
          notebook_id: id,
          notebook_name: name,
          notebook_type: 'user',
          notes: 0,
          notebook_created_at: at,
          notebook_updated_at: at,
          default: false,
        };
        return [{ store: NOTEBOOKS, key: id, value: record }];
      },
      // The server's notebook stands (an existing one of that name keeps its own id).
      confirm: (input, result): PatchItem<S>[] => {
        const { notebook } = result.results;
        return [
          ...(notebook.notebook_id !== input.id
            ? [{ store: NOTEBOOKS, key: input.id } as PatchItem<S>]
            : []),
          { store: NOTEBOOKS, key: notebook.notebook_id, value: notebook },
        ];
      },
      deferred: () => undefined,
    },
    'notebooks.rename': {
      endpoint: 'renameNotebook',
      orderKey: () => 'notebooks',
      params: ({ id }) => ({ id }),
      body: ({ name }) => ({ name }),
      async optimistic(ctx, { id, name }) {
        const held = await (await ctx.mirror).get<Notebook>(NOTEBOOKS, id);
        if (!held) return [];
        return [{ store: NOTEBOOKS, key: id, value: { ...held, notebook_name: name } }];
      },
      confirm: (_input, result) => [
        { store: NOTEBOOKS, key: result.results.notebook_id, value: result.results },
      ],
      deferred: () => undefined,
    },
    'notebooks.delete': {
      endpoint: 'deleteNotebook',
      orderKey: () => 'notebooks',
      params: ({ id }) => ({ id }),
      body: () => undefined,
      async optimistic(ctx, { id }) {
        const mirror = await ctx.mirror;
        return [{ store: NOTEBOOKS, key: id }, ...(await dropNotes(mirror, id))];
      },
      deferred: () => undefined,
    },
    'notes.create': {
      endpoint: 'createNote',
      orderKey: () => 'notebooks',
      params: ({ notebook_id }) => ({ id: notebook_id }),
      body: ({ id, name, document }) => ({ id, name, document }),
      optimistic: (ctx, input) => {
        const at = nowIso(ctx);
        const note: Note = {
          ...input,
          name: input.name || 'Untitled note',
          created_at: at,
          updated_at: at,
        };
        return [{ store: NOTES, key: input.id, value: note }];
      },
      confirm: (_input, result) => [
        { store: NOTES, key: result.results.note.id, value: result.results.note },
      ],
      deferred: () => undefined,
    },
    'notes.edit': {
      endpoint: 'snipNote',
      orderKey: () => 'notebooks',
      params: ({ id }) => ({ id }),
      body: ({ document, name }) => ({ document, ...(name !== undefined ? { name } : {}) }),
      async optimistic(ctx, { id, document, name }) {
        const held = await (await ctx.mirror).get<Note>(NOTES, id);
        if (!held) return [];
        const note: Note = {
          ...held,
          document,
          ...(name !== undefined ? { name: name || 'Untitled note' } : {}),
          updated_at: nowIso(ctx),
        };
        return [{ store: NOTES, key: id, value: note }];
      },
      confirm: (_input, result) => [
        { store: NOTES, key: result.results.id, value: result.results },
      ],
      deferred: () => undefined,
    },
    'notes.delete': {
      endpoint: 'deleteNote',
      orderKey: () => 'notebooks',
      params: ({ id }) => ({ id }),
      body: () => undefined,
      optimistic: (_ctx, { id }) => [{ store: NOTES, key: id }],
      deferred: () => undefined,
    },
  },
  changes: {
    notebook(change, tx) {
      if (change.op === 'upsert') {
        tx.put(NOTEBOOKS, change.data.notebook_id, change.data);
        return;
      }
      tx.put(NOTEBOOKS, change.id, undefined);
      // Its notes went with it on the server: drop them here (a range of records, after).
      tx.after(async (ctx) => {
        const mirror = await ctx.mirror;
        const owner = ctx.owner();
        const writes = await dropNotes(mirror, change.id);
        if (owner && writes.length) await ctx.reads.store(writes, owner);
      });
    },
    note(change, tx) {
      if (change.op === 'upsert') tx.put(NOTES, change.data.id, change.data);
      else tx.put(NOTES, change.id, undefined);
    },
  },
  async refresh(ctx) {
    await pullNotebooks(ctx);
    await pullNotes(ctx);
  },
});
