import './tables';
import { defineServerDomain } from '../domain';
import { peopleMigrations } from './migrations';
import { registerPeopleRoutes } from './routes';

/**
 * People and contacts (contract/people.ts): the user's people with their priority and contacts,
 * every query scoped to the user; each write records a 'person' change.
 */
export const peopleDomain = defineServerDomain({
  name: 'people',
  register: registerPeopleRoutes,
  migrations: peopleMigrations,
});
