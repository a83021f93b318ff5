import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { DEFAULT_PRODUCT } from '../contract/constants';
import type { OpInput, OpName, OpOutput, WorkerEvent, WorkspaceApi } from '../contract/worker-api';
import { createApiClient, messageOf } from './api-client';
import { ask, ASK_USAGE } from './cli-ask';
import { CliUsageError, feed, FEED_USAGE, follow, sources } from './cli-feed';
import { search, SEARCH_USAGE } from './cli-search';
import { systemClock } from './deps';
import { createHeadlessWorkspace, mirrorSpecs, nodeFetch } from './headless';
import { openMirror, type MirrorDump } from './mirror';

/**
 * `npm run ws -- <command>`: the worker from a terminal, over the same createWorkspace as the
 * browser. The mirror (session included) is kept between runs as a JSON dump of the
 * fake-indexeddb database in ~/.needl-ws (WS_STATE_DIR), one file per API base.
 */

const USAGE = `usage: npm run ws -- <command>

  signin <email> <password>   sign in (the session is kept for the next commands)
  signup <name> <email> <password>
  signout
  flags                       the feature flag map
  prefs                       user preferences
  org                         your organisation and permissions
  notifications [page]        a page of notifications (20 a page)
  window <offset> <count>     the rows the mirror holds from <offset> (as the list's window reads)
  read <id>...                mark notifications read
${FEED_USAGE}
${SEARCH_USAGE}
${ASK_USAGE}
  outbox                      mutations waiting to be sent
  drain                       send what the outbox holds now
  sync                        pull the change feed
  health                      is the server up?

environment: WS_BASE_URL (default http://localhost:8080/api), WS_PRODUCT (default ${DEFAULT_PRODUCT}),
             WS_STATE_DIR (default ~/.needl-ws)`;

const baseUrl = (process.env.WS_BASE_URL ?? 'http://localhost:8080/api').replace(/\/$/, '');
const product = process.env.WS_PRODUCT ?? process.env.PRODUCT ?? DEFAULT_PRODUCT;
const stateDir = process.env.WS_STATE_DIR ?? join(homedir(), '.needl-ws');
const stateFile = join(stateDir, `${encodeURIComponent(baseUrl)}.json`);
const dbName = `${product}-workspace`;

const UsageError = CliUsageError;

/** A whole number from `min`, or a usage error naming the argument. */
const wholeNumber = (command: string, name: string, text: string | undefined, min: number) => {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < min) {
    throw new UsageError(`${command}: ${name} must be a whole number from ${min}, not "${text}"`);
  }
  return value;
};

async function loadState(factory: IDBFactory) {
  let dump: MirrorDump;
  try {
    dump = JSON.parse(await readFile(stateFile, 'utf8')) as MirrorDump;
  } catch {
    return;
  }
  const mirror = await openMirror(factory, dbName, mirrorSpecs());
  await mirror.restore(dump);
  mirror.close();
}

/**
 * Stores not kept between runs: a feed's mirror is refetched (and may be large), and a search
 * is asked of the server each run (a kept one would print what the server said last time).
 */
const UNSAVED = ['feed_entries', 'search_queries', 'search_results'];

async function saveState(factory: IDBFactory) {
  const mirror = await openMirror(factory, dbName, mirrorSpecs());
  const dump: Record<string, unknown> = await mirror.dump();
  mirror.close();
  for (const store of UNSAVED) delete dump[store];
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFile(stateFile, JSON.stringify(dump, null, 2), { mode: 0o600 });
  // The file holds a refresh token: readable by its owner only, even if it existed before.
  await chmod(stateFile, 0o600);
}

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

async function health() {
  const client = createApiClient({
    fetch: nodeFetch,
    clock: systemClock,
    baseUrl,
    product,
    randomId: () => crypto.randomUUID(),
    auth: {
      token: () => null,
      refresh: () => Promise.reject(new Error('health needs no token')),
      missing: () => {},
      unauthorized: () => {},
    },
  });
  print(await client.call('health'));
}

async function run(args: string[]) {
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  if (command === 'health') return health();

  const factory = new FakeIDBFactory();
  await loadState(factory);
  const headless = createHeadlessWorkspace({
    baseUrl,
    product,
    indexedDB: factory,
    dbName,
    warn: () => {},
  });
  const api: WorkspaceApi = headless.workspace.api();
  // A lost session makes a call never complete (000 §8); the CLI says so and stops instead.
  let sessionLost: (error: Error) => void = () => {};
  const lost = new Promise<never>((_resolve, reject) => {
    sessionLost = reject;
  });
  lost.catch(() => {});
  // Commands that follow the worker's events (ask) listen here too.
  const listeners = new Set<(event: WorkerEvent) => void>();
  await api.subscribe((event) => {
    if (event.type === 'logout' && event.reason === 'session-lost') {
      sessionLost(new Error('the session is over: run `npm run ws -- signin <email> <password>`'));
    }
    for (const listener of listeners) listener(event);
  });
  const call = <K extends OpName>(op: K, input: OpInput<K>): Promise<OpOutput<K>> =>
    Promise.race([api.call(op, input), lost]);
  const needSession = async () => {
    const state = await call('auth.session', {});
    if (state.status !== 'signed-in') {
      throw new Error('not signed in: run `npm run ws -- signin <email> <password>` first');
    }
    return state;
  };

  let waitIdle = true;
  try {
    switch (command) {
      case 'signin': {
        const [email, password] = rest;
        if (!email || !password) throw new UsageError('signin needs <email> <password>');
        const state = await call('auth.signIn', { email, password });
        if (state.status === 'signed-in') {
          console.log(`Signed in as ${state.user.name} <${state.user.email}>`);
        }
        break;
      }
      case 'signup': {
        const [name, email, password] = rest;
        if (!name || !email || !password) {
          throw new UsageError('signup needs <name> <email> <password>');
        }
        const state = await call('auth.signUp', { name, email, password });
        if (state.status === 'signed-in') console.log(`Signed up as ${state.user.email}`);
        break;
      }
      case 'signout':
        await call('auth.signOut', {});
        console.log('Signed out');
        break;
      case 'flags':
        await needSession();
        print(await call('flags.get', {}));
        break;
      case 'prefs':
        await needSession();
        print(await call('preferences.get', {}));
        break;
      case 'org':
        await needSession();
        print(await call('org.self', {}));
        break;
      case 'notifications': {
        await needSession();
        const page = rest[0] === undefined ? 1 : wholeNumber(command, 'page', rest[0], 1);
        print(await call('notifications.page', { page }));
        break;
      }
      case 'window': {
        await needSession();
        const offset = wholeNumber(command, 'offset', rest[0], 0);
        const count = wholeNumber(command, 'count', rest[1], 1);
        print(await call('notifications.window', { offset, count }));
        break;
      }
      case 'read':
        await needSession();
        if (rest.length === 0) throw new UsageError('read needs at least one notification id');
        await call('notifications.markRead', { ids: rest });
        print(await call('outbox.list', {}));
        break;
      case 'follow':
        await needSession();
        print(await follow(call, rest[0]));
        break;
      case 'sources':
        await needSession();
        print(await sources(call));
        break;
      case 'feed':
        await needSession();
        print(await feed(call, rest));
        // The backfill it started is not waited for (closing cancels it): a feed is not kept.
        waitIdle = false;
        break;
      case 'search':
        await needSession();
        print(await search(call, rest));
        break;
      case 'ask': {
        await needSession();
        const listen = (listener: (event: WorkerEvent) => void) => {
          listeners.add(listener);
          return () => void listeners.delete(listener);
        };
        await ask(call, listen, rest, (text) => void process.stdout.write(text));
        break;
      }
      case 'outbox':
        print(await call('outbox.list', {}));
        break;
      case 'drain':
        await needSession();
        print(await call('outbox.drain', {}));
        break;
      case 'sync':
        await needSession();
        print(await call('sync.pull', {}));
        break;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
    if (waitIdle) await headless.workspace.idle();
  } finally {
    await headless.close();
    await saveState(factory);
  }
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`ws: ${messageOf(error)}`);
    if (error instanceof UsageError) console.error(`\n${USAGE}`);
    process.exit(1);
  },
);
