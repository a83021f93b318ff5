import { ErrorBody } from '../contract/common';
import {
  API_RETRIES,
  API_RETRY_DELAY_MS,
  HEADERS,
  REQUEST_ORIGIN,
  TOKEN_REFRESH_RETRIES,
} from '../contract/constants';
import {
  endpoints,
  type EndpointBody,
  type EndpointName,
  type EndpointQuery,
  type EndpointResponse,
} from '../contract/endpoints';
import type { Variant } from '../contract/worker-api';
import { abortError, ApiError, isAbortError, messageOf, rateLimited } from './api-errors';
import { resolveRequest, type ApiRequest } from './api-request';
import { abortable, neverSettles, sleepAbortable } from './api-waits';
import {
  DEFAULT_VARIANT,
  type Clock,
  type FetchLike,
  type RequestInitLike,
  type ResponseLike,
} from './deps';

export { ApiError, abortError, isAbortError, isNetworkError, messageOf } from './api-errors';
export type { ApiRequest, EndpointRequest, PathRequest } from './api-request';

/** What the client needs from the session. */
export type AuthHooks = {
  token(): string | null;
  /**
   * A token fresher than `stale`; rejects when the session cannot be refreshed. The session
   * logs a failed refresh (once, however many calls waited on it); `label` names the call that
   * asked first.
   */
  refresh(stale: string, label?: string): Promise<string>;
  /** An authenticated call (`label`) found no token: broadcast the logout. */
  missing(label?: string): void;
  /** The server no longer knows `token` (401 on an authenticated call). */
  unauthorized(token: string): void;
  /** Whether `token` is past its lifetime by the worker's clock (refreshed before sending). */
  expired?(token: string): boolean;
  /** A log has no token to go with: keep it for after the next sign-in (000 §8). */
  keepLog?(logData: Record<string, unknown>): void;
};

export type ApiClientDeps = {
  fetch: FetchLike;
  clock: Clock;
  baseUrl: string;
  product: string;
  requestOrigin?: string;
  randomId: () => string;
  auth: AuthHooks;
  /** Told after every attempt whether the server was reached. */
  onReachable?: (reachable: boolean) => void;
};

export type SendOptions = {
  /** Cancels the request: it rejects at once with an AbortError and is never retried. */
  signal?: AbortSignal;
};

export type CallOptions<N extends EndpointName> = SendOptions & {
  body?: EndpointBody<N>;
  query?: EndpointQuery<N>;
  params?: Record<string, string>;
  variant?: Variant;
  idempotencyKey?: string;
  background?: boolean;
  token?: string;
};

export type ApiClient = {
  /**
   * Sends a request under the whole policy (headers, retries, refresh, no-token rule) and
   * answers the 2xx response unread: its `body` is a stream (an answer that arrives over
   * time), `text()` reads it whole. Any other status rejects with an ApiError.
   */
  send<N extends EndpointName>(
    request: ApiRequest<N>,
    options?: SendOptions,
  ): Promise<ResponseLike>;
  /** `send` to an endpoint, its JSON answer parsed with the endpoint's response schema. */
  call<N extends EndpointName>(name: N, options?: CallOptions<N>): Promise<EndpointResponse<N>>;
  /**
   * POST /debug-logs, best effort: one attempt, errors swallowed. Sent with `token` if given
   * (a stale one is fine: the server accepts a known but expired token there), else the
   * session's; with neither it is kept for after the next sign-in.
   */
  log(logData: Record<string, unknown>, token?: string): Promise<void>;
};

/**
 * The API client of spec 000 §7-8: every request carries token, app-type and x-request-origin
 * (and an idempotency key when it is a mutation). Network errors and 5xx are retried twice,
 * 300 ms apart (mutations too: the key makes a repeat harmless); other 4xx never. A 403 gets a
 * fresh token and a retry; a call refreshes at most twice, the refresh before sending a token
 * known to have expired included, then the 403 is logged and rejected. No token: logout
 * broadcast and a promise that never settles (and holds no timer). An abort rejects at once,
 * cancels the fetch or the wait for a retry, and is never retried.
 */
export function createApiClient(deps: ApiClientDeps): ApiClient {
  const origin = deps.requestOrigin ?? REQUEST_ORIGIN;
  const headersFor = (token: string | null, variant?: Variant, key?: string) =>
    requestHeaders(origin, token, variant, key);
  const sleep = (ms: number, signal: AbortSignal | undefined, label: string) =>
    sleepAbortable(deps.clock, ms, signal, label);

  async function send(request: ApiRequest, { signal }: SendOptions = {}): Promise<ResponseLike> {
    const target = resolveRequest(request, deps.baseUrl, deps.product);
    const { label } = target;
    if (signal?.aborted) throw abortError(label);
    const key =
      target.mutation && request.idempotencyKey !== false
        ? (request.idempotencyKey ?? deps.randomId())
        : undefined;
    // A request with its own token is outside the session: it neither refreshes nor ends it.
    const own = request.token !== undefined;
    let token: string | null = null;
    if (target.auth) {
      token = request.token ?? deps.auth.token();
      if (!token) {
        if (request.background) throw new ApiError(401, 'no_token', `${label}: not signed in`);
        deps.auth.missing(label);
        return neverSettles(signal, label);
      }
    }
    let retries = 0;
    let refreshes = 0;
    const refresh = (stale: string) => {
      refreshes += 1;
      return abortable(deps.auth.refresh(stale, label), signal, label);
    };
    if (token && !own && deps.auth.expired?.(token)) {
      // Known to be expired: refresh first rather than spend a round trip on the 403.
      token = await refresh(token);
    }
    for (;;) {
      const { body, contentType } = target.body();
      const headers = { ...request.headers, ...headersFor(token, request.variant, key) };
      if (contentType) headers['content-type'] = contentType;
      const init: RequestInitLike = { method: target.method, headers };
      if (body !== undefined) init.body = body;
      if (body instanceof ReadableStream) init.duplex = 'half';
      if (signal) init.signal = signal;

      let response: ResponseLike;
      try {
        response = await abortable(deps.fetch(target.url, init), signal, label);
      } catch (error) {
        if (signal?.aborted) throw abortError(label);
        deps.onReachable?.(false);
        if (retries < API_RETRIES && target.repeatable) {
          retries += 1;
          await sleep(API_RETRY_DELAY_MS, signal, label);
          continue;
        }
        throw new ApiError(0, 'network', `${label} did not reach the server (${messageOf(error)})`);
      }
      deps.onReachable?.(true);
      const { status } = response;
      if (status >= 200 && status < 300) return response;

      const error = errorFrom(label, response, await abortable(readBody(response), signal, label));
      if (own && (status === 401 || status === 403)) throw error;
      if (status === 401 && target.auth && token) {
        deps.auth.unauthorized(token);
        throw error;
      }
      if (status === 403 && target.auth && token && target.repeatable) {
        if (refreshes < TOKEN_REFRESH_RETRIES) {
          token = await refresh(token);
          continue;
        }
        void log({ event: 'forbidden_after_refresh', call: label, message: error.message }, token);
        throw error;
      }
      if (status >= 500 && retries < API_RETRIES && target.repeatable) {
        retries += 1;
        await sleep(API_RETRY_DELAY_MS, signal, label);
        continue;
      }
      throw error;
    }
  }

  async function call<N extends EndpointName>(
    name: N,
    options: CallOptions<N> = {},
  ): Promise<EndpointResponse<N>> {
    const { body, signal, ...rest } = options;
    const request = { ...rest, endpoint: name, json: body } as ApiRequest<N>;
    const { label } = resolveRequest(request, deps.baseUrl, deps.product);
    const response = await send(request, { signal });
    let payload: unknown;
    try {
      payload = parse(await abortable(response.text(), signal, label));
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw abortError(label);
      throw new ApiError(0, 'network', `${label}: the answer was cut off (${messageOf(error)})`);
    }
    return checkedAnswer(name, label, response.status, payload);
  }

  async function log(logData: Record<string, unknown>, explicit?: string) {
    const token = explicit ?? deps.auth.token();
    if (!token) {
      deps.auth.keepLog?.(logData);
      return;
    }
    const { url, method } = resolveRequest({ endpoint: 'debugLogs' }, deps.baseUrl, deps.product);
    const headers = headersFor(token, undefined, deps.randomId());
    headers['content-type'] = 'application/json';
    try {
      await deps.fetch(url, { method, headers, body: JSON.stringify({ logData }) });
    } catch {
      // Best effort: a log that cannot be sent is not worth a retry or an error.
    }
  }

  return { send, call, log };
}

/** The headers of spec 000 §7 on every request: app type, origin, token and idempotency key. */
function requestHeaders(origin: string, token: string | null, variant?: Variant, key?: string) {
  const headers: Record<string, string> = {
    [HEADERS.appType]: variant ?? DEFAULT_VARIANT,
    [HEADERS.requestOrigin]: origin,
  };
  if (token) headers[HEADERS.token] = token;
  if (key) headers[HEADERS.idempotencyKey] = key;
  return headers;
}

/** `payload` checked against the endpoint's response schema. */
function checkedAnswer<N extends EndpointName>(
  name: N,
  label: string,
  status: number,
  payload: unknown,
): EndpointResponse<N> {
  const parsed = endpoints[name].response.safeParse(payload);
  if (parsed.success) return parsed.data as EndpointResponse<N>;
  const issue = parsed.error.issues[0];
  throw new ApiError(
    status,
    'bad_response',
    `${label} answered with an unexpected shape: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
  );
}

const parse = (text: string): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** The body of an answer that is not a success, for its error; a body cut off reads as none. */
async function readBody(response: ResponseLike): Promise<unknown> {
  try {
    return parse(await response.text());
  } catch (error) {
    if (isAbortError(error)) throw error;
    return undefined;
  }
}

/** Retry-After in whole seconds (the server never sends the date form), as milliseconds. */
const retryAfterMs = (response: ResponseLike) => {
  const value = response.headers?.get('retry-after')?.trim();
  return value && /^\d{1,9}$/.test(value) ? Number(value) * 1000 : undefined;
};

const errorFrom = (label: string, response: ResponseLike, body: unknown) => {
  const { status } = response;
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) {
    const { error, message, issues } = parsed.data;
    return new ApiError(status, error, message, issues, retryAfterMs(response));
  }
  if (status === 429) return rateLimited(retryAfterMs(response));
  const text = typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : '';
  return new ApiError(status, 'http_error', `${label} failed with HTTP ${status}${text}`);
};
