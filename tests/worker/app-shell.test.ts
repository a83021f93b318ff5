import { describe, expect, it } from 'vitest';
import { createAppShell, type CacheLike, type CacheStorageLike } from '../../worker/app-shell';

/** CacheStorage in memory: caches by name, each a map of path to body text. */
function memoryCaches(initial: Record<string, Record<string, string>> = {}) {
  const stores = new Map<string, Map<string, string>>(
    Object.entries(initial).map(([name, files]) => [name, new Map(Object.entries(files))]),
  );
  const caches: CacheStorageLike = {
    async open(name) {
      let store = stores.get(name);
      if (!store) stores.set(name, (store = new Map()));
      const cache: CacheLike = {
        async match(path) {
          const body = store.get(path);
          return body === undefined ? undefined : new Response(body);
        },
        async put(path, response) {
          store.set(path, await response.text());
        },
      };
      return cache;
    },
    keys: async () => [...stores.keys()],
    delete: async (name) => stores.delete(name),
  };
  return { caches, stores };
}

const ORIGIN = 'https://app.test';
const manifest = { version: 'v2', files: ['/index.html', '/assets/main-abc12345.js'] };

function setup(options: { network: boolean } = { network: true }) {
  const { caches, stores } = memoryCaches({
    'app-shell-v1': { '/index.html': 'old page' },
    'someone-else': { '/x': 'kept' },
  });
  const fetched: string[] = [];
  const state = { network: options.network };
  const shell = createAppShell({
    manifest,
    caches,
    origin: ORIGIN,
    fetch: async (url, init) => {
      fetched.push(`${url}${init?.cache ? ` (${init.cache})` : ''}`);
      if (!state.network) throw new TypeError('Failed to fetch');
      return new Response(`network ${new URL(url, ORIGIN).pathname}`);
    },
  });
  return { shell, stores, fetched, state };
}

const text = async (answer: Promise<Response> | null) => (answer ? (await answer).text() : null);

describe('the app shell service worker', () => {
  it("keeps the build's files on install and drops older builds' caches on activate", async () => {
    const { shell, stores, fetched } = setup();
    await shell.install();
    expect(fetched).toEqual(['/index.html (reload)', '/assets/main-abc12345.js (reload)']);
    await shell.activate();
    expect([...stores.keys()].sort()).toEqual(['app-shell-v2', 'someone-else']);
    expect(Object.fromEntries(stores.get('app-shell-v2')!)).toEqual({
      '/index.html': 'network /index.html',
      '/assets/main-abc12345.js': 'network /assets/main-abc12345.js',
    });
  });

  it('starts the app from the cache when the server is down, and never answers the API', async () => {
    const { shell, state } = setup();
    await shell.install();
    state.network = false;
    const page = { url: `${ORIGIN}/feeds/home`, method: 'GET', mode: 'navigate' };
    expect(await text(shell.respond(page))).toBe('network /index.html');
    expect(
      await text(
        shell.respond({ url: `${ORIGIN}/assets/main-abc12345.js`, method: 'GET', mode: 'cors' }),
      ),
    ).toBe('network /assets/main-abc12345.js');
    expect(
      shell.respond({ url: `${ORIGIN}/api/boards/home/v2`, method: 'GET', mode: 'cors' }),
    ).toBe(null);
    expect(shell.respond({ url: `${ORIGIN}/assets/x.js`, method: 'POST', mode: 'cors' })).toBe(
      null,
    );
    expect(shell.respond({ url: 'https://cdn.test/a.js', method: 'GET', mode: 'cors' })).toBe(null);
  });

  it('loads a page from the network while the server is up (a new build shows at once)', async () => {
    const { shell, fetched } = setup();
    await shell.install();
    const page = { url: `${ORIGIN}/search?q=x`, method: 'GET', mode: 'navigate' };
    expect(await text(shell.respond(page))).toBe('network /search');
    expect(fetched.at(-1)).toBe(`${ORIGIN}/search?q=x`);
  });
});
