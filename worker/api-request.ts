import {
  endpoints,
  type EndpointBody,
  type EndpointName,
  type EndpointQuery,
} from '../contract/endpoints';
import type { Variant } from '../contract/worker-api';
import type { BodyLike } from './deps';

/**
 * What `send` is asked to send: an endpoint of the contract (its method, path and auth from
 * there) or a raw path (a stream, an upload target the contract does not list yet), with a
 * JSON or raw body and extra headers. The client adds its own headers and policy to either.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type QueryValue = string | number | boolean | null | undefined;

type RequestBase = {
  /** Extra headers (e.g. `accept: text/event-stream`); the client's own headers win. */
  headers?: Record<string, string>;
  /**
   * A raw body, sent as is (its content-type goes in `headers`). A function makes a fresh one
   * for every attempt, so a streamed body can be retried; a ReadableStream given directly can
   * be read once, so its request is never repeated (no retry, no retry after a refresh).
   */
  body?: BodyLike | (() => BodyLike);
  /** The calling tab's variant, sent as app-type. */
  variant?: Variant;
  /**
   * Reused by every attempt; the outbox passes the key it stored. false: none (an upload's
   * transfer, a raw body the server must not read twice).
   */
  idempotencyKey?: string | false;
  /**
   * Work the worker starts on its own (polls, outbox, sync): with no token it rejects with
   * ApiError 401 'no_token' instead of broadcasting a logout and never completing.
   */
  background?: boolean;
  /**
   * Sent instead of the session's token, which the request then leaves alone: a 401 or 403 is
   * the answer (no refresh, no lost session). Signing out of a session already ended here.
   */
  token?: string;
};

export type EndpointRequest<N extends EndpointName> = RequestBase & {
  endpoint: N;
  /** Fills the `{name}` segments of the path (`{product}` is filled by the client). */
  params?: Record<string, string>;
  query?: EndpointQuery<N>;
  /** Sent as application/json. */
  json?: EndpointBody<N>;
};

export type PathRequest = RequestBase & {
  method: HttpMethod;
  /** Relative to the API base; `{product}` and `params` are filled as in an endpoint's. */
  path: string;
  params?: Record<string, string>;
  /** Whether it carries the session's token (and so falls under the no-token and 403 rules). */
  auth: boolean;
  /** An array is the parameter repeated (`document_id=a&document_id=b`). */
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  json?: unknown;
};

export type ApiRequest<N extends EndpointName = EndpointName> = EndpointRequest<N> | PathRequest;

/** A request with its contract resolved: what every attempt sends. */
export type ResolvedRequest = {
  url: string;
  /** Upper case, as fetch sends it. */
  method: string;
  auth: boolean;
  /** Not a GET: carries an idempotency key. */
  mutation: boolean;
  /** `METHOD /path`, for messages and logs. */
  label: string;
  /** False for a one-shot stream body: such a request is sent once. */
  repeatable: boolean;
  /** The body of one attempt, with its content-type when the client sets it (JSON). */
  body(): { body?: BodyLike; contentType?: string };
};

export function resolveRequest(
  request: ApiRequest,
  baseUrl: string,
  product: string,
): ResolvedRequest {
  const { method, path, auth } =
    'endpoint' in request ? endpoints[request.endpoint] : (request as PathRequest);
  const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    if (name === 'product') return product;
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`${path}: no value for the path parameter {${name}}`);
    return encodeURIComponent(value);
  });
  const label = `${method.toUpperCase()} ${filled}`;
  if (request.json !== undefined && request.body !== undefined) {
    throw new Error(`${label}: a request has a JSON body or a raw body, not both`);
  }
  const raw = request.body;
  return {
    url: `${baseUrl}${filled}${queryString(request.query)}`,
    method: method.toUpperCase(),
    auth,
    mutation: method !== 'get',
    label,
    repeatable: !(raw instanceof ReadableStream),
    body() {
      if (request.json !== undefined) {
        return { body: JSON.stringify(request.json), contentType: 'application/json' };
      }
      return { body: typeof raw === 'function' ? raw() : raw };
    },
  };
}

/** The query string; an array value repeats its parameter once per item, in order. */
export const queryString = (query: unknown) => {
  if (!query || typeof query !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};
