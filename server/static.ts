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
 * Serves the built app: files from `distDir`, and index.html for every other path so the
 * client-side router can take it (a missing /assets/ file is a real 404, which makes a stale
 * tab's lazy import fail and reload). Without a build, says how to make one.
 */
export const createStaticHandler = (distDir: string) => {
  const root = resolve(distDir);
  const index = join(root, 'index.html');
  return async (c: Context) => {
    if (!(await isFile(index))) {
      return c.text('app not built: run npm run build', 503, { 'cache-control': 'no-store' });
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(c.req.path);
    } catch {
      return c.text('bad path', 400);
    }
    const candidate = normalize(join(root, pathname));
    const inside = candidate === root || candidate.startsWith(root + sep);
    if (inside && candidate !== root && (await isFile(candidate))) {
      const body = await readFile(candidate);
      return c.body(body, 200, {
        'content-type': TYPES[extname(candidate).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': HASHED.test(pathname)
          ? 'public, max-age=31536000, immutable'
          : candidate === index
            ? 'no-cache'
            : 'public, max-age=3600',
      });
    }
    if (pathname.startsWith('/assets/')) return c.text(`not found: ${pathname}`, 404);
    return c.body(await readFile(index), 200, {
      'content-type': TYPES['.html'],
      'cache-control': 'no-cache',
    });
  };
};
