import { z } from 'zod';
import { DEFAULT_PRODUCT } from './constants';
import { defineDomain, endpoint, id, op, queryInt, text } from './define';
import { FeatureEligibility } from './uploads';
import { NOTE_LIMITS, NoteDocument, NoteDocumentInput } from './note-document';

// The snip document (rich-text nodes, the link rule, text and snippet) is its own file.
export * from './note-document';

/**
 * Notebooks and notes (002 §3-5, §8-9; 001 §2, §7-8). A notebook holds the user's notes; a note
 * is a name and a snip document: rich-text nodes (below), made from a card or a selection of a
 * document, from an assistant answer (its citations kept as links to the cited passage), or
 * typed. The spec names the paths (/notebook/list, /notebook/{id}, PUT /notebook incl.
 * `?botNotebook=true`, /note/create/{id}, /note/snip/{id}, /note/{id}) but not every shape:
 * designed here.
 *
 * - GET /notebook/list?feedId=&channelId=: the user's notebooks, the default one first, then by
 *   creation (oldest first). feedId and channelId are accepted (groups will scope by them).
 * - PUT /notebook `{ name, id? }`: create a notebook (`id`: the client's id, the optimistic
 *   record's key). With `?botNotebook=true` it answers the user's default notebook, creating
 *   it (named `name`, the spec's placeholder `bot_placeholder` when absent) the first time.
 *   A retried create (same id) answers the notebook as it stands.
 * - PUT /notebook/{id} `{ name }`: rename. DELETE /notebook/{id}: delete it with its notes.
 * - GET /notebook/{id}: one notebook with a page of its notes, newest first.
 * - PUT /note/create/{notebookId} `{ name, id?, document? }` → `results.id`: create a note.
 * - POST /note/snip/{noteId} `{ document, name? }`: replace a note's document (and name).
 * - GET /note/{id}, DELETE /note/{id}.
 * - GET /note/list?after=&limit=: every note of the user by id cursor (the mirror's pull; the
 *   static path is served ahead of /note/{id}, so a note cannot be named `list`).
 *
 * Rich text is data, never HTML (note-document.ts): the server checks every link on the way in and again on the
 * way out (`safeNoteHref`), and the UI renders the nodes as elements, so no markup a note holds
 * can run.
 */

/** A notebook name holds at most this many characters (after trimming). */
export const NOTEBOOK_NAME_MAX = 100;
/** A note's name holds at most this many characters. */
export const NOTE_NAME_MAX = 200;
/** A user holds at most this many notebooks (the list answers them all). */
export const MAX_NOTEBOOKS = 500;
/** A notebook holds at most this many notes. */
export const MAX_NOTES_PER_NOTEBOOK = 2000;
/** The most notes one page answers (GET /notebook/{id}, GET /note/list). */
export const NOTES_PAGE = 500;
/** The placeholder name of the notebook a chat is saved to (001 §7). */
export const BOT_PLACEHOLDER = 'bot_placeholder';

/** The spec's texts (002 §5, §8; 001 §8). */
export const NOTEBOOK_TEXT = {
  pickerPlaceholder: 'Find notebook or create one',
  pickerEmpty: 'Please create a Notebook',
  noteCreated: 'Note created successfully!',
  addFailed: 'Add to Notes failed! Please contact us!',
  savedFromChat: (product: string = DEFAULT_PRODUCT) => `Saved to ${product} Note!`,
  selectOne: 'Select a message to access this option',
} as const;

/** What is wrong with a notebook name, or null: trimmed, non-empty, at most NOTEBOOK_NAME_MAX. */
export const notebookNameProblem = (name: string): string | null => {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'name must not be empty';
  if (trimmed.length > NOTEBOOK_NAME_MAX) {
    return `name must be at most ${NOTEBOOK_NAME_MAX} characters`;
  }
  return null;
};

/** The key two notebook names are the same by (case-insensitive, trimmed). */
export const notebookKey = (name: string) => name.trim().toLowerCase();

/**
 * The picker's create option (002 §5): the trimmed input when it is a valid name and no
 * notebook of that name exists (case-insensitively); else null (no option shown).
 */
export const notebookOffer = (
  input: string,
  notebooks: ReadonlyArray<{ notebook_name: string }>,
): string | null => {
  const trimmed = input.trim();
  if (notebookNameProblem(trimmed)) return null;
  const key = notebookKey(trimmed);
  return notebooks.some((n) => notebookKey(n.notebook_name) === key) ? null : trimmed;
};

export const NOTEBOOK_TYPES = ['default', 'user'] as const;
export const Notebook = z.object({
  notebook_id: z.string(),
  notebook_name: z.string(),
  notebook_type: z.enum(NOTEBOOK_TYPES),
  /** How many notes it holds. */
  notes: z.number().int().nonnegative(),
  notebook_created_at: z.string(),
  notebook_updated_at: z.string(),
  default: z.boolean(),
});
export type Notebook = z.infer<typeof Notebook>;

export const Note = z.object({
  id: z.string(),
  notebook_id: z.string(),
  name: z.string(),
  document: NoteDocument,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Note = z.infer<typeof Note>;

const notebookName = z
  .string({ message: 'name must be text' })
  .max(NOTEBOOK_NAME_MAX * 4, { message: `name must be at most ${NOTEBOOK_NAME_MAX} characters` })
  .superRefine((value, ctx) => {
    const problem = notebookNameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value.trim());

const noteName = z
  .string({ message: 'name must be text' })
  .max(NOTE_NAME_MAX * 4, { message: `name must be at most ${NOTE_NAME_MAX} characters` })
  .transform((value) => value.replace(/\s+/g, ' ').trim())
  .refine((value) => value.length <= NOTE_NAME_MAX, {
    message: `name must be at most ${NOTE_NAME_MAX} characters`,
  });

export const NotebookListQuery = z.object({
  feedId: id('feedId').optional(),
  channelId: id('channelId').optional(),
});
export const NotebookList = z.object({ results: z.array(Notebook) });

export const CreateNotebookQuery = z.object({
  botNotebook: z
    .enum(['true', 'false'], { message: 'botNotebook must be true or false' })
    .optional(),
});
export const CreateNotebookBody = z
  .object({
    name: notebookName.optional(),
    id: id('id').optional(),
    feedId: id('feedId').optional(),
    channelId: id('channelId').optional(),
  })
  .strict();
export const CreateNotebookResult = z.object({
  results: z.object({ notebookId: z.string(), notebook: Notebook, created: z.boolean() }),
});

export const RenameNotebookBody = z.object({ name: notebookName }).strict();
export const NotebookResult = z.object({ results: Notebook });
export const Deleted = z.object({ deleted: z.number().int().nonnegative() });

export const NotebookNotesQuery = z.object({
  limit: queryInt('limit', 1, NOTES_PAGE, NOTES_PAGE),
});
export const NotebookWithNotes = z.object({
  results: z.object({ notebook: Notebook, notes: z.array(Note), has_more: z.boolean() }),
});

export const CreateNoteBody = z
  .object({
    name: noteName,
    id: id('id').optional(),
    document: NoteDocumentInput.optional(),
    /**
     * A selection of a document as HTML (the snip from a preview), when `document` is absent:
     * sanitised by the server's HTML sanitiser and kept as paragraphs of its text.
     */
    html: text('html', NOTE_LIMITS.chars).optional(),
  })
  .strict();
export type CreateNoteBody = z.input<typeof CreateNoteBody>;
export const CreateNoteResult = z.object({ results: z.object({ id: z.string(), note: Note }) });

export const SnipNoteBody = z
  .object({ document: NoteDocumentInput, name: noteName.optional() })
  .strict();
export const NoteResult = z.object({ results: Note });

export const NoteListQuery = z.object({
  after: id('after').optional(),
  limit: queryInt('limit', 1, NOTES_PAGE, NOTES_PAGE),
});
export const NoteList = z.object({
  notes: z.array(Note),
  /** The last id of the page (the next page's `after`); null on an empty page. */
  cursor: z.string().nullable(),
  has_more: z.boolean(),
});

export const notebooks = defineDomain({
  name: 'notebooks',
  endpoints: {
    listNotebooks: endpoint({
      method: 'get',
      path: '/notebook/list',
      auth: true,
      query: NotebookListQuery,
      response: NotebookList,
      status: 200,
      summary: "The user's notebooks, the default one first",
    }),
    createNotebook: endpoint({
      method: 'put',
      path: '/notebook',
      auth: true,
      query: CreateNotebookQuery,
      body: CreateNotebookBody,
      response: CreateNotebookResult,
      status: 200,
      summary: 'Create a notebook (botNotebook=true: the default notebook, made once)',
    }),
    getNotebook: endpoint({
      method: 'get',
      path: '/notebook/{id}',
      auth: true,
      query: NotebookNotesQuery,
      response: NotebookWithNotes,
      status: 200,
      summary: 'A notebook with its notes, newest first',
    }),
    renameNotebook: endpoint({
      method: 'put',
      path: '/notebook/{id}',
      auth: true,
      body: RenameNotebookBody,
      response: NotebookResult,
      status: 200,
      summary: 'Rename a notebook',
    }),
    deleteNotebook: endpoint({
      method: 'delete',
      path: '/notebook/{id}',
      auth: true,
      response: Deleted,
      status: 200,
      summary: 'Delete a notebook with its notes (answers how many notes went)',
    }),
    listNotes: endpoint({
      method: 'get',
      path: '/note/list',
      auth: true,
      query: NoteListQuery,
      response: NoteList,
      status: 200,
      summary: 'Every note of the user, by id cursor',
    }),
    createNote: endpoint({
      method: 'put',
      path: '/note/create/{id}',
      auth: true,
      body: CreateNoteBody,
      response: CreateNoteResult,
      status: 200,
      summary: 'Create a note in a notebook',
    }),
    snipNote: endpoint({
      method: 'post',
      path: '/note/snip/{id}',
      auth: true,
      body: SnipNoteBody,
      response: NoteResult,
      status: 200,
      summary: "Replace a note's snip document (and name)",
    }),
    getNote: endpoint({
      method: 'get',
      path: '/note/{id}',
      auth: true,
      response: NoteResult,
      status: 200,
      summary: 'One note',
    }),
    deleteNote: endpoint({
      method: 'delete',
      path: '/note/{id}',
      auth: true,
      response: Deleted,
      status: 200,
      summary: 'Delete a note',
    }),
  },
  ops: {
    /** The user's notebooks from the mirror, the default first; `notes` counted there. */
    'notebooks.list': op(z.object({}).strict(), z.array(Notebook)),
    /**
     * The add_notebook gate (000 §6, GET /stripe/messaging): eligible, or the upsell to show.
     * Eligible when the server cannot be asked (offline): the server refuses past the limit.
     */
    'notebooks.gate': op(z.object({}).strict(), FeatureEligibility),
    /** Optimistic with rollback (002 §4). */
    'notebooks.create': op(z.object({ id: id('id'), name: notebookName }).strict(), z.void()),
    'notebooks.rename': op(z.object({ id: id('id'), name: notebookName }).strict(), z.void()),
    'notebooks.delete': op(z.object({ id: id('id') }).strict(), z.void()),
    /** A notebook's notes from the mirror, newest first. */
    'notes.list': op(
      z
        .object({ notebook_id: id('notebook_id'), limit: z.number().int().min(1).max(5000) })
        .strict(),
      z.array(Note),
    ),
    'notes.get': op(z.object({ id: id('id') }).strict(), Note.nullable()),
    'notes.create': op(
      z
        .object({
          id: id('id'),
          notebook_id: id('notebook_id'),
          name: noteName,
          document: NoteDocument,
        })
        .strict(),
      z.void(),
    ),
    /** Autosave: the note's document (and name) become these. */
    'notes.edit': op(
      z.object({ id: id('id'), document: NoteDocument, name: noteName.optional() }).strict(),
      z.void(),
    ),
    'notes.delete': op(z.object({ id: id('id') }).strict(), z.void()),
  },
  changes: { notebook: Notebook, note: Note },
  stores: ['notebooks', 'notes'],
});
