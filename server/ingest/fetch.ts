import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { checkConnectedAddress, checkLiteralHost, safeLookup } from './address';
import { decodeBody } from './decode';
import { FetchError } from './fetch-error';

/**
 * The one outbound fetch of the server (feeds, pages, filings, probes). Every call:
 * - reads only http and https, and connects only to public addresses (address.ts) unless
 *   `allowPrivate` (FETCH_ALLOW_PRIVATE=1: tests and local development): an IP literal is
 *   checked before connecting, every address a name resolves to in the socket's lookup, and
 *   the address the socket really connected to once it has, before a byte is sent;
 * - follows at most 5 redirects itself, checking each new address the same way;
 * - stops reading past `maxBytes` (10 MB; decompressed bytes count) and past `timeoutMs`
 *   (15 s for the whole call, redirects included), so memory and time stay bounded; a body
 *   the time limit cut off is a timeout, never read as a short body;
 * - with `headBytes`, reads only the first bytes of the body and hangs up (what a followed
 *   address is: probe.ts);
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
  /** Read only this many bytes of the body (decompressed), then hang up; `complete` says if
   * that was all of it. */
  headBytes?: number;
};

export type FetchResult =
  | { status: 'not_modified'; url: string }
  | {
      status: 'ok';
      /** The address answered, after redirects. */
      url: string;
      contentType: string | null;
      body: Buffer;
      /** The body as text (decode.ts), decoded when first read. */
      readonly text: string;
      etag: string | null;
      lastModified: string | null;
      /** False when `headBytes` stopped the reading before the body's end. */
      complete: boolean;
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
      const { body, complete } = await readBody(res, signal, {
        maxBytes: opts.maxBytes ?? FETCH_DEFAULTS.maxBytes,
        headBytes: opts.headBytes,
        what: opts.what,
      });
      // A body that ends when its connection closes looks whole to the HTTP parser even when
      // the time limit was what closed it.
      if (signal.aborted) throw signal.reason;
      const contentType = header(res, 'content-type');
      let text: string | undefined;
      return {
        status: 'ok',
        url: url.href,
        contentType,
        body,
        // Decoded when first read: a feed is read from its bytes a piece at a time instead.
        get text() {
          return (text ??= decodeBody(body, contentType));
        },
        etag: header(res, 'etag'),
        lastModified: header(res, 'last-modified'),
        complete,
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
      signal,
      // No agent: one socket per fetch, made here (no pooled connection to an address checked
      // for another call).
      createConnection: () => connect(url, allowPrivate),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
};

/**
 * The fetch's socket. Its lookup refuses a name with any private address; once connected,
 * the peer's address is checked again (the address really connected to, whatever resolved or
 * was written: IPv4-mapped, NAT64, 6to4 and Teredo forms decoded) before the request, or for
 * https the TLS handshake, is sent: this listener runs first, so a refusal sends nothing.
 */
const connect = (url: URL, allowPrivate: boolean): net.Socket => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const secure = url.protocol === 'https:';
  const socket = net.connect({
    host,
    port: Number(url.port) || (secure ? 443 : 80),
    lookup: safeLookup(allowPrivate),
  });
  if (!allowPrivate) {
    socket.once('connect', () => {
      try {
        checkConnectedAddress(host, socket.remoteAddress);
      } catch (err) {
        socket.destroy(err as Error);
      }
    });
  }
  if (!secure) return socket;
  // SNI names a host, never an address.
  return tls.connect({ socket, host, servername: net.isIP(host) ? undefined : host });
};

/**
 * Reads the (decompressed) body, failing as soon as it passes `maxBytes`, or when the time
 * limit (`signal`) ends it; with `headBytes`, stops once that much is read.
 */
const readBody = (
  res: IncomingMessage,
  signal: AbortSignal,
  opts: { maxBytes: number; headBytes?: number; what?: string },
): Promise<{ body: Buffer; complete: boolean }> => {
  const { maxBytes, headBytes, what = 'feed' } = opts;
  const declared = Number(res.headers['content-length']);
  const tooLarge = () =>
    new FetchError('too_large', `the ${what} is larger than ${sizeWords(maxBytes)}`);
  // Known from the headers, so refused even when only the first bytes are wanted.
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
  // A body of known length is copied into one buffer as it arrives, so each chunk is garbage
  // at once instead of being held to the end and joined (twice the body, until a full
  // collection frees the chunks).
  const known =
    stream === res &&
    headBytes === undefined &&
    Number.isSafeInteger(declared) &&
    declared > 0 &&
    declared <= maxBytes
      ? Buffer.allocUnsafe(declared)
      : null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const stop = () => {
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      if (stream !== res) stream.destroy();
    };
    // The first cause wins: destroying the response makes it report an abort of its own.
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(err);
      stop();
    };
    const done = (complete: boolean) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve({ body: known ? known.subarray(0, size) : Buffer.concat(chunks), complete });
      if (!complete) stop();
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (headBytes !== undefined && size + chunk.length > headBytes) {
        chunks.push(chunk.subarray(0, headBytes - size));
        size = headBytes;
        done(false);
        return;
      }
      if (known && size + chunk.length <= known.length) chunk.copy(known, size);
      else if (known) {
        // More than the length declared: the HTTP parser stops a body at its length, so this is
        // never reached; kept as a refusal rather than a short copy.
        fail(new FetchError('unreachable', 'the answer was longer than it said'));
        return;
      } else chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) fail(tooLarge());
    });
    stream.once('end', () => {
      if (!res.complete) fail(new FetchError('unreachable', 'the answer was cut off'));
      else done(true);
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
