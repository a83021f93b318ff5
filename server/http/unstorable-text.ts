import type { MiddlewareHandler } from 'hono';
import { endpointPath, endpoints, type EndpointName } from '../../contract/endpoints';
import type { AppEnv } from '../context';
import { ApiError } from '../errors';

/**
 * Text that neither storage back end may be given: PostgreSQL refuses U+0000 in text (SQLite
 * stores it, so the two would differ), and an unpaired surrogate is not Unicode at all (UTF-8
 * has no bytes for it; drivers quietly write U+FFFD instead). Every string of an API request
 * (path segments, query names and values, JSON body keys and values) is checked before any
 * route, guard or the idempotency record sees it, and a request holding one is refused with a
 * 400 naming where it is. Refused rather than stripped, on every route alike: our clients never
 * send them, and changing a user's text quietly would make what is stored differ from what was
 * sent (and a retry under the same idempotency key differ from its first run).
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or null when it can. */
export const unstorableReason = (text: string): string | null => {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it holds an unpaired surrogate)';
  return null;
};

type Problem = { path: string; message: string };

const NAME_CHARS = 100;
/** A name as the error shows it: escaped (JSON's escapes) and at most 100 characters. */
const shown = (name: string) => {
  const escaped = JSON.stringify(name).slice(1, -1);
  return escaped.length > NAME_CHARS ? `${escaped.slice(0, NAME_CHARS)}…` : escaped;
};
const child = (path: string, key: string) => (path ? `${path}.${shown(key)}` : shown(key));

/**
 * The first string (value or key) of a parsed JSON value that cannot be stored, with its path
 * as validation errors write it (`definition.sources.0`; `body` for the value itself). Walked
 * with a stack, not recursion: a body may be nested thousands deep.
 */
export function firstUnstorable(value: unknown): Problem | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const why = unstorableReason(v);
      if (why) return { path: path || 'body', message: why };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], child(path, String(i))]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [key] of entries) {
        const why = unstorableReason(key);
        if (why) return { path: child(path, key), message: `field name ${why}` };
      }
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push([entries[i][1], child(path, entries[i][0])]);
      }
    }
  }
  return null;
}

const refuse = ({ path, message }: Problem) =>
  new ApiError(400, 'bad_request', `${path}: ${message}`, [{ path, message }]);

/**
 * The name of the path parameter at `index` of `segments`, by the contract's paths (so the
 * 400 says `id`, not "path"), or null when no endpoint has a parameter there.
 */
function paramNameAt(templates: string[][], segments: string[], index: number): string | null {
  for (const template of templates) {
    if (template.length !== segments.length) continue;
    const name = /^\{(.+)\}$/.exec(template[index])?.[1];
    if (!name) continue;
    const fits = template.every(
      (part, i) => i === index || part.startsWith('{') || part === segments[i],
    );
    if (fits) return name;
  }
  return null;
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The middleware refusing unstorable text anywhere in an /api request (see the top). */
export function refuseUnstorableText(product: string): MiddlewareHandler<AppEnv> {
  const templates = (Object.keys(endpoints) as EndpointName[]).map((name) =>
    `/api${endpointPath(name, product)}`.split('/'),
  );
  return async (c, next) => {
    const url = new URL(c.req.url);
    const segments = url.pathname.split('/').map(decoded);
    for (const [i, segment] of segments.entries()) {
      const why = unstorableReason(segment);
      if (why) throw refuse({ path: paramNameAt(templates, segments, i) ?? 'path', message: why });
    }
    for (const [key, values] of Object.entries(c.req.queries())) {
      const why = unstorableReason(key);
      if (why) throw refuse({ path: shown(key), message: `parameter name ${why}` });
      for (const value of values) {
        const bad = unstorableReason(value);
        if (bad) throw refuse({ path: shown(key), message: bad });
      }
    }
    if (/\bjson\b/i.test(c.req.header('content-type') ?? '')) {
      // Read once here; the route's validator reads the same text from the request's cache.
      const text = await c.req.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined; // not JSON: the route's validator says so
      }
      const problem = firstUnstorable(body);
      if (problem) throw refuse(problem);
    }
    return next();
  };
}
