import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

/** What scripts/compress-dist.ts precompresses, and the variants it writes, best first. */
export const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
]);
const VARIANTS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** Vite names built files `name-<hash>.ext` under assets/: their content never changes. */
const HASHED = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

const isFile = async (path: string) => {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
};

/**
 * The content codings an Accept-Encoding header allows: each listed name whose q is above 0,
 * and through `*` any name not listed with q=0.
 */
export const acceptedEncodings = (header: string | undefined): Set<string> => {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!name) continue;
    const weight = params.find((p) => p.startsWith('q='));
    q.set(name, weight ? Number(weight.slice(2)) || 0 : 1);
  }
  const accepted = new Set([...q].filter(([, weight]) => weight > 0).map(([name]) => name));
  if (accepted.has('*')) {
    for (const { encoding } of VARIANTS) if (!q.has(encoding)) accepted.add(encoding);
  }
  return accepted;
};

/**
 * One file of the build, precompressed when the client takes it so: `<file>.br` or `.gz`
 * beside it, with Content-Encoding and `Vary: Accept-Encoding` (caches keep one per coding).
 */
const sendFile = async (
  c: Context,
  file: string,
  status: 200 | 400,
  cacheControl: string,
): Promise<Response> => {
  const ext = extname(file).toLowerCase();
  const headers: Record<string, string> = {
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    'cache-control': cacheControl,
  };
  if (COMPRESSIBLE.has(ext)) {
    headers.vary = 'Accept-Encoding';
    const accepted = acceptedEncodings(c.req.header('accept-encoding'));
    for (const { encoding, suffix } of VARIANTS) {
      if (accepted.has(encoding) && (await isFile(file + suffix))) {
        const body = await readFile(file + suffix);
        return c.body(body, status, { ...headers, 'content-encoding': encoding });
      }
    }
  }
  return c.body(await readFile(file), status, headers);
};

/**
 * Serves the built app: files from `distDir`, and index.html for every other path so the
 * client-side router can take it (a missing /assets/ file is a real 404, which makes a stale
 * tab's lazy import fail and reload). A path that is not valid percent-encoding still gets the
 * app, with status 400, so that its error screen shows. Hashed assets are cached for a year,
 * index.html is revalidated every time. Without a build, says how to make one.
 */
export const createStaticHandler = (distDir: string) => {
  const root = resolve(distDir);
  const index = join(root, 'index.html');
  return async (c: Context) => {
    if (!(await isFile(index))) {
      return c.text('app not built: run npm run build', 503, { 'cache-control': 'no-store' });
    }
    // The raw path, decoded once here (the router's copy may be decoded already).
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return sendFile(c, index, 400, 'no-cache');
    }
    const candidate = normalize(join(root, pathname));
    const inside = candidate.startsWith(root + sep);
    if (inside && candidate !== index && (await isFile(candidate))) {
      const cache = HASHED.test(pathname)
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=3600';
      return sendFile(c, candidate, 200, cache);
    }
    if (pathname.startsWith('/assets/')) return c.text(`not found: ${pathname}`, 404);
    return sendFile(c, index, 200, 'no-cache');
  };
};
