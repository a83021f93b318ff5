import { ErrorBody } from '../contract/common';
import {
  API_RETRIES,
  API_RETRY_DELAY_MS,
  HEADERS,
  REQUEST_ORIGIN,
  TOKEN_REFRESH_RETRIES,
} from '../contract/constants';
import {
  endpointPath,
  endpoints,
  isMutation,
  type EndpointBody,
  type EndpointName,
  type EndpointQuery,
  type EndpointResponse,
} from '../contract/endpoints';
import type { Variant } from '../contract/worker-api';
import { DEFAULT_VARIANT, type Clock, type FetchLike, type ResponseLike } from './deps';

/**
 * An API call that failed: the HTTP status (0 when the server was never reached), the error
 * code of the server's ErrorBody and its message. Own enumerable fields, so they survive the
 * trip to a tab through comlink.
 */
export class ApiError extends Error {
  status: number;
  code: string;
  issues?: { path: string; message: string }[];
  constructor(
    status: number,
    code: string,
    message: string,
    issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    if (issues) this.issues = issues;
  }
}

export const isNetworkError = (error: unknown) => error instanceof ApiError && error.status === 0;

/** What the client needs from the session. */
export type AuthHooks = {
  token(): string | null;
  /** A token fresher than `stale`; rejects when the session cannot be refreshed. */
  refresh(stale: string): Promise<string>;
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

export type CallOptions<N extends EndpointName> = {
  body?: EndpointBody<N>;
  query?: EndpointQuery<N>;
  /** The calling tab's variant, sent as app-type. */
  variant?: Variant;
  /** Reused by every attempt; the outbox passes the key it stored. */
  idempotencyKey?: string;
  /**
   * Work the worker starts on its own (polls, outbox, sync): with no token it rejects with
   * ApiError 401 'no_token' instead of broadcasting a logout and never completing.
   */
  background?: boolean;
  /**
   * Sent instead of the session's token, which the call then leaves alone: a 401 or 403 is
   * the answer (no refresh, no lost session). Signing out of a session already ended here.
   */
  token?: string;
};

export type ApiClient = {
  call<N extends EndpointName>(name: N, options?: CallOptions<N>): Promise<EndpointResponse<N>>;
  /**
   * POST /debug-logs, best effort: one attempt, errors swallowed. Sent with `token` if given
   * (a stale one is fine: the server accepts a known but expired token there), else the
   * session's; with neither it is kept for after the next sign-in.
   */
  log(logData: Record<string, unknown>, token?: string): Promise<void>;
};

const never = () => new Promise<never>(() => {});

/**
 * The API client of spec 000 §7-8: every call carries token, app-type and x-request-origin
 * (and an idempotency key when it is a mutation). Network errors and 5xx are retried twice,
 * 300 ms apart (mutations too: the key makes a repeat harmless); other 4xx never. A 403 gets a
 * fresh token and a retry, at most twice, then is logged and rejected. No token: logout
 * broadcast and a promise that never settles (and holds no timer).
 */
export function createApiClient(deps: ApiClientDeps): ApiClient {
  const origin = deps.requestOrigin ?? REQUEST_ORIGIN;
  const sleep = (ms: number) => new Promise<void>((resolve) => deps.clock.setTimeout(resolve, ms));

  const urlOf = (name: EndpointName, query: unknown) => {
    let url = `${deps.baseUrl}${endpointPath(name, deps.product)}`;
    if (query && typeof query === 'object') {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) {
        if (value !== undefined && value !== null) params.set(key, String(value));
      }
      const text = params.toString();
      if (text) url += `?${text}`;
    }
    return url;
  };

  async function readBody(response: ResponseLike): Promise<unknown> {
    const text = await response.text();
    if (!text) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  const errorFrom = (name: EndpointName, status: number, body: unknown) => {
    const parsed = ErrorBody.safeParse(body);
    if (parsed.success) {
      return new ApiError(status, parsed.data.error, parsed.data.message, parsed.data.issues);
    }
    const { method } = endpoints[name];
    const text = typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : '';
    return new ApiError(
      status,
      'http_error',
      `${method.toUpperCase()} ${endpointPath(name, deps.product)} failed with HTTP ${status}${text}`,
    );
  };

  /** A fresh token for `stale`; a failed refresh is logged (with the stale token) and rethrown. */
  async function refreshOrLog(stale: string, label: string): Promise<string> {
    try {
      return await deps.auth.refresh(stale);
    } catch (refreshError) {
      void log(
        { event: 'token_refresh_failed', call: label, message: messageOf(refreshError) },
        stale,
      );
      throw refreshError;
    }
  }

  async function call<N extends EndpointName>(
    name: N,
    options: CallOptions<N> = {},
  ): Promise<EndpointResponse<N>> {
    const endpoint = endpoints[name];
    const label = `${endpoint.method.toUpperCase()} ${endpointPath(name, deps.product)}`;
    const key = isMutation(name) ? (options.idempotencyKey ?? deps.randomId()) : undefined;
    let token: string | null = null;
    // A call with its own token is outside the session: it neither refreshes nor ends it.
    const own = options.token !== undefined;
    if (endpoint.auth) {
      token = options.token ?? deps.auth.token();
      if (!token) {
        if (options.background) throw new ApiError(401, 'no_token', `${label}: not signed in`);
        deps.auth.missing(label);
        return never();
      }
    }
    const url = urlOf(name, options.query);
    let retries = 0;
    let refreshes = 0;
    if (token && !own && deps.auth.expired?.(token)) {
      // Known to be expired: refresh first rather than spend a round trip on the 403.
      token = await refreshOrLog(token, label);
    }
    for (;;) {
      const headers: Record<string, string> = {
        [HEADERS.appType]: options.variant ?? DEFAULT_VARIANT,
        [HEADERS.requestOrigin]: origin,
      };
      if (token) headers[HEADERS.token] = token;
      if (key) headers[HEADERS.idempotencyKey] = key;
      let body: string | undefined;
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }

      let response: ResponseLike;
      try {
        response = await deps.fetch(url, { method: endpoint.method.toUpperCase(), headers, body });
      } catch (error) {
        deps.onReachable?.(false);
        if (retries < API_RETRIES) {
          retries += 1;
          await sleep(API_RETRY_DELAY_MS);
          continue;
        }
        const reason = error instanceof Error ? error.message : String(error);
        throw new ApiError(0, 'network', `${label} did not reach the server (${reason})`);
      }
      deps.onReachable?.(true);
      const payload = await readBody(response);

      if (response.status >= 200 && response.status < 300) {
        const parsed = endpoint.response.safeParse(payload);
        if (parsed.success) return parsed.data as EndpointResponse<N>;
        const issue = parsed.error.issues[0];
        throw new ApiError(
          response.status,
          'bad_response',
          `${label} answered with an unexpected shape: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
        );
      }

      const error = errorFrom(name, response.status, payload);
      if (own && (response.status === 401 || response.status === 403)) throw error;
      if (response.status === 401 && endpoint.auth && token) {
        deps.auth.unauthorized(token);
        throw error;
      }
      if (response.status === 403 && endpoint.auth && token) {
        const stale: string = token;
        if (refreshes < TOKEN_REFRESH_RETRIES) {
          refreshes += 1;
          token = await refreshOrLog(stale, label);
          continue;
        }
        void log({ event: 'forbidden_after_refresh', call: label, message: error.message }, stale);
        throw error;
      }
      if (response.status >= 500 && retries < API_RETRIES) {
        retries += 1;
        await sleep(API_RETRY_DELAY_MS);
        continue;
      }
      throw error;
    }
  }

  async function log(logData: Record<string, unknown>, explicit?: string) {
    const token = explicit ?? deps.auth.token();
    if (!token) {
      deps.auth.keepLog?.(logData);
      return;
    }
    try {
      await deps.fetch(urlOf('debugLogs', null), {
        method: 'POST',
        headers: {
          [HEADERS.token]: token,
          [HEADERS.appType]: DEFAULT_VARIANT,
          [HEADERS.requestOrigin]: origin,
          [HEADERS.idempotencyKey]: deps.randomId(),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ logData }),
      });
    } catch {
      // Best effort: a log that cannot be sent is not worth a retry or an error.
    }
  }

  return { call, log };
}

export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error);
