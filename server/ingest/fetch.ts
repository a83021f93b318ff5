import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { STATUS_CODES } from 'node:http';
import zlib from 'node:zlib';
import { checkLiteralHost, safeLookup } from './address';
import { decodeBody } from './decode';
import { FetchError } from './fetch-error';

/**
 * The one outbound fetch of the server (feeds, pages, filings, probes). Every call:
 * - reads only http and https, and connects only to public addresses (address.ts) unless
 *   `allowPrivate` (FETCH_ALLOW_PRIVATE=1: tests and local development);
 * - follows at most 5 redirects itself, checking each new address the same way;
 * - stops reading past `maxBytes` (10 MB; decompressed bytes count) and past `timeoutMs`
 *   (15 s for the whole call, redirects included), so memory and time stay bounded;
 * - sends the validators it is given (conditional GET): a 304 answers `not_modified`;
 * - decodes the body by its charset (decode.ts).
 */
export type FetchOptions = {
  allowPrivate?: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  etag?: string | null;
  lastModified?: string | null;
  /** Extra request headers (a publisher's expected Referer). */
  headers?: Record<string, string>;
  userAgent?: string;
  accept?: string;
  /** What the body is, in the too-large message ("the feed is larger than 10 MB"). */
  what?: string;
  signal?: AbortSignal;
};

export type FetchResult =
  | { status: 'not_modified'; url: string }
  | {
      status: 'ok';
      /** The address answered, after redirects. */
      url: string;
      contentType: string | null;
      body: Buffer;
      text: string;
      etag: string | null;
      lastModified: string | null;
    };

/**
 * The user agent: the product, and a contact when known (SEC EDGAR refuses automated requests
 * that do not declare one).
 */
export const userAgentFor = (product: string, contact?: string): string =>
  `${product.charAt(0).toUpperCase()}${product.slice(1)}Workspace/1.0 (feed reader${contact ? `; ${contact}` : ''})`;

export const FETCH_DEFAULTS = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 15_000,
  maxRedirects: 5,
  userAgent: userAgentFor('needl'),
  accept:
    'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, ' +
    'text/html;q=0.8, application/json;q=0.8, */*;q=0.5',
} as const;

const sizeWords = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;

const secondsWords = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Parses and checks an address before anything is sent. */
export const parseFetchUrl = (raw: string): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid_url', 'the address is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError(
      'unsupported_scheme',
      `only http and https addresses can be read, not ${url.protocol.replace(/:$/, '')}`,
    );
  }
  return url;
};

export const fetchUrl = async (raw: string, opts: FetchOptions = {}): Promise<FetchResult> => {
  const timeoutMs = opts.timeoutMs ?? FETCH_DEFAULTS.timeoutMs;
  const maxRedirects = opts.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const seen = new Set<string>();
  let url = parseFetchUrl(raw);
  try {
    for (let hop = 0; ; hop++) {
      seen.add(url.href);
      const res = await request(url, opts, signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304 && res.headers.location) {
        res.resume();
        const next = parseFetchUrl(new URL(res.headers.location, url).href);
        if (seen.has(next.href)) {
          throw new FetchError('redirect_loop', 'the address redirects in a loop');
        }
        if (hop + 1 > maxRedirects) {
          throw new FetchError(
            'too_many_redirects',
            `the address redirects more than ${maxRedirects} times`,
          );
        }
        url = next;
        continue;
      }
      if (status === 304) {
        res.resume();
        return { status: 'not_modified', url: url.href };
      }
      if (status < 200 || status >= 300) {
        res.resume();
        const reason = res.statusMessage || STATUS_CODES[status] || '';
        throw new FetchError(
          'http_status',
          `the server answered ${status}${reason ? ` ${reason}` : ''}`,
        );
      }
      const body = await readBody(res, opts.maxBytes ?? FETCH_DEFAULTS.maxBytes, opts.what);
      const contentType = header(res, 'content-type');
      return {
        status: 'ok',
        url: url.href,
        contentType,
        body,
        text: decodeBody(body, contentType),
        etag: header(res, 'etag'),
        lastModified: header(res, 'last-modified'),
      };
    }
  } catch (err) {
    if (timeout.aborted) {
      throw new FetchError('timeout', `timed out after ${secondsWords(timeoutMs)}`);
    }
    if (err instanceof FetchError) throw err;
    throw networkError(err);
  }
};

const header = (res: IncomingMessage, name: string): string | null => {
  const v = res.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
};

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  EPROTO: 'the secure connection failed',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate could not be verified',
};

const networkError = (err: unknown): FetchError => {
  const code = (err as { code?: string }).code ?? '';
  const words = NETWORK_WORDS[code] ?? (code ? `network error ${code}` : 'network error');
  return new FetchError('unreachable', `the server could not be reached: ${words}`, words);
};

const request = (url: URL, opts: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> => {
  const allowPrivate = opts.allowPrivate ?? false;
  checkLiteralHost(url.hostname, allowPrivate);
  const headers: Record<string, string> = {
    'user-agent': opts.userAgent ?? FETCH_DEFAULTS.userAgent,
    accept: opts.accept ?? FETCH_DEFAULTS.accept,
    'accept-encoding': 'gzip, deflate, br',
    ...opts.headers,
  };
  if (opts.etag) headers['if-none-match'] = opts.etag;
  if (opts.lastModified) headers['if-modified-since'] = opts.lastModified;
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, {
      method: 'GET',
      headers,
      lookup: safeLookup(allowPrivate),
      signal,
      // One socket per fetch: no pooled connection to an address checked for another call.
      agent: false,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
};

/** Reads the (decompressed) body, failing as soon as it passes `maxBytes`. */
const readBody = (res: IncomingMessage, maxBytes: number, what = 'feed'): Promise<Buffer> => {
  const declared = Number(res.headers['content-length']);
  const tooLarge = () =>
    new FetchError('too_large', `the ${what} is larger than ${sizeWords(maxBytes)}`);
  if (res.headers['content-encoding'] === undefined && declared > maxBytes) {
    res.destroy();
    return Promise.reject(tooLarge());
  }
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  const stream =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? res.pipe(zlib.createGunzip())
      : encoding === 'deflate'
        ? res.pipe(zlib.createInflate())
        : encoding === 'br'
          ? res.pipe(zlib.createBrotliDecompress())
          : res;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // The first cause wins: destroying the response makes it report an abort of its own.
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
      res.destroy();
      if (stream !== res) stream.destroy();
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) fail(tooLarge());
      else chunks.push(chunk);
    });
    stream.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    });
    stream.once('error', (err) =>
      fail(
        err instanceof FetchError
          ? err
          : new FetchError(
              'unreachable',
              'the answer could not be read (it was cut off or corrupt)',
            ),
      ),
    );
    res.once('aborted', () => fail(new FetchError('unreachable', 'the answer was cut off')));
    res.once('error', (err) => fail(err));
  });
};
