import type { OpenAPIHono } from '@hono/zod-openapi';
import { transact, type AppDeps, type AppEnv } from '../context';
import { routesFor } from '../http/define';
import {
  contactInfo,
  createPerson,
  deletePerson,
  editPerson,
  getPerson,
  listPeople,
} from './queries';

/**
 * The endpoints of contract/people.ts. /people/contact_info is registered before /people/{id}.
 * Reads use `c.var.db`; writes go through `transact`.
 */
export const registerPeopleRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('people', app, deps.product);

  on('peopleList', async (c, { auth }) => ({ results: await listPeople(c.var.db, auth.user.id) }));

  on('contactInfo', async (c, { query, auth }) =>
    contactInfo(c.var.db, auth.user.id, query.source, query.contacts),
  );

  on('person', async (c, { params, auth }) => getPerson(c.var.db, auth.user.id, params.id));

  on('createPerson', async (c, { body, auth }) =>
    transact(c, (db) => createPerson(db, auth.user.id, body, deps.now())),
  );

  on('editPerson', async (c, { params, body, auth }) =>
    transact(c, (db) => editPerson(db, auth.user.id, params.id, body, deps.now())),
  );

  on('deletePerson', async (c, { params, auth }) => {
    await transact(c, (db) => deletePerson(db, auth.user.id, params.id, deps.now()));
    return { deleted: true as const };
  });
};
