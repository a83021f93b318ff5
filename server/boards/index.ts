import './tables';
import { defineServerDomain } from '../domain';
import { boardMigrations } from './migrations';
import { registerBoardRoutes } from './routes';
import { seedBoards } from './seed';

/**
 * Boards (feeds): custom and AI feeds as queries over what a user follows, their documents
 * kept as feed entries (built on create and edit, extended as documents arrive), and `home`.
 */
export const boardsDomain = defineServerDomain({
  name: 'boards',
  register: registerBoardRoutes,
  migrations: boardMigrations,
  seed: seedBoards,
});

// What other folders may import (eslint.config.js: only through this file).
export { addSourceToBoards, removeSourceFromBoards } from './build';
export { boardsReading, entryTargets } from './fan-out';
export {
  addSourceEntries,
  countSourceDocs,
  countSourceEntries,
  type EntryRow,
  FeedTouches,
  homeFeedId,
  removeSourceEntries,
  upsertEntries,
} from './feed-entries';
export { tabInfos } from './metadata';
export { editBoard, listBoards, ownBoard, resolveFeed, toBoard } from './queries';
