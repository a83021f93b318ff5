import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import { routesFor } from '../http/define';
import { uploadSettingsOf } from '../uploads';
import {
  createNote,
  deleteNote,
  incomingDocument,
  noteList,
  noteOf,
  snipNote,
} from './note-queries';
import {
  createNotebook,
  deleteNotebook,
  listNotebooks,
  notebookWithNotes,
  renameNotebook,
} from './queries';

/**
 * The endpoints of contract/notebooks.ts. The static paths (/notebook/list, /note/list,
 * /note/create/..., /note/snip/...) are registered before /notebook/{id} and /note/{id}.
 * Reads use `c.var.db`; writes go through `transact`.
 */
export const registerNotebookRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('notebooks', app, deps.product);

  on('listNotebooks', async (c, { auth }) => ({
    results: await listNotebooks(c.var.db, auth.user.id),
  }));

  on('createNotebook', async (c, { body, query, auth }) => {
    const { notebook, created } = await transact(c, (db) =>
      createNotebook(
        db,
        auth.user.id,
        { name: body.name, id: body.id, bot: query.botNotebook === 'true' },
        uploadSettingsOf(deps.uploads),
        deps.now(),
      ),
    );
    return { results: { notebookId: notebook.notebook_id, notebook, created } };
  });

  on('listNotes', async (c, { query, auth }) =>
    noteList(c.var.db, auth.user.id, query.after, query.limit),
  );

  on('createNote', async (c, { params, body, auth }) => {
    const note = await transact(c, (db) =>
      createNote(
        db,
        auth.user.id,
        params.id,
        { id: body.id, name: body.name, document: incomingDocument(body) },
        deps.product,
        deps.now(),
      ),
    );
    return { results: { id: note.id, note } };
  });

  on('snipNote', async (c, { params, body, auth }) => ({
    results: await transact(c, (db) =>
      snipNote(
        db,
        auth.user.id,
        params.id,
        { document: incomingDocument(body), name: body.name },
        deps.product,
        deps.now(),
      ),
    ),
  }));

  on('getNotebook', async (c, { params, query, auth }) => ({
    results: await notebookWithNotes(c.var.db, auth.user.id, params.id, query.limit),
  }));

  on('renameNotebook', async (c, { params, body, auth }) => ({
    results: await transact(c, (db) =>
      renameNotebook(db, auth.user.id, params.id, body.name, deps.now()),
    ),
  }));

  on('deleteNotebook', async (c, { params, auth }) => ({
    deleted: await transact(c, (db) =>
      deleteNotebook(db, auth.user.id, params.id, deps.product, deps.now()),
    ),
  }));

  on('getNote', async (c, { params, auth }) => ({
    results: await noteOf(c.var.db, auth.user.id, params.id),
  }));

  on('deleteNote', async (c, { params, auth }) => ({
    deleted: await transact(c, (db) =>
      deleteNote(db, auth.user.id, params.id, deps.product, deps.now()),
    ),
  }));
};
