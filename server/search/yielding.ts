import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Db } from '../db/schema';
import { isSqlite } from './dialect';

/**
 * better-sqlite3 runs each statement on the event loop, and a chain of awaits on statements
 * that are already done never lets the loop take its turn: a search of many statements (a
 * spelling correction's lookups, a walk's chunks) held every other request for the whole of
 * it, and four at once for the four. Behind this plugin a statement's answer is handed back
 * only on a turn of its own: one per round of the event loop, first come first served, so
 * between two statements of any searches the loop reads the sockets and every other request
 * goes on. Four searches at once run a statement each in four rounds, not four in one (which
 * plain setImmediate would do: callbacks queued together run together), so a request that
 * needs no search waits for one statement at most. What bounds a statement itself is the
 * query's word budget (query.ts MAX_QUERY_TERMS).
 *
 * Only for reads outside a transaction: on SQLite a transaction holds the one connection, and a
 * turn taken inside it would only keep everyone else waiting longer. PostgreSQL's driver
 * answers asynchronously already.
 */
const waiting: Array<() => void> = [];
let pumping = false;

/** Hands one waiting statement its turn, and the next one the next round of the loop. */
const pump = () => {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(pump);
  else pumping = false;
};

/** Resolves on a round of the event loop of its own. */
export const nextTurn = (): Promise<void> =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });

class TakeTurns implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    await nextTurn();
    return args.result;
  }
}

const takeTurns = new TakeTurns();

/** The handle a search reads with: on SQLite (outside a transaction), one that takes turns. */
export const searchHandle = (db: Db): Db =>
  isSqlite(db) && !db.isTransaction ? db.withPlugin(takeTurns) : db;
