import './tables';
import { defineServerDomain } from '../domain';
import { registerNotebookScope } from '../assistant';
import { registerFeatureUsage } from '../uploads';
import { notebookNotes } from './ask-scope';
import { notebookMigrations } from './migrations';
import { userNotebookCount } from './queries';
import { registerNotebookRoutes } from './routes';

// The add_notebook gate (/stripe/messaging) counts the user's own notebooks.
registerFeatureUsage('add_notebook', userNotebookCount);
// A notebook is an assistant scope: its notes' documents (ask-scope.ts).
registerNotebookScope(notebookNotes);

/**
 * Notebooks and notes (contract/notebooks.ts): the user's notebooks and the notes in them,
 * every query scoped to the user; each write records its change for the user's other tabs and
 * devices. Note documents are rich-text nodes whose links are checked on the way in and out.
 */
export const notebooksDomain = defineServerDomain({
  name: 'notebooks',
  register: registerNotebookRoutes,
  migrations: notebookMigrations,
});
