/**
 * An API call that failed: the HTTP status (0 when the server was never reached), the error
 * code of the server's ErrorBody and its message, and how long the server asked to wait
 * (Retry-After, on a 429). Own enumerable fields, so they survive the trip to a tab through
 * comlink.
 */
export class ApiError extends Error {
  status: number;
  code: string;
  issues?: { path: string; message: string }[];
  retryAfterMs?: number;
  constructor(
    status: number,
    code: string,
    message: string,
    issues?: { path: string; message: string }[],
    retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    if (issues) this.issues = issues;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

export const isNetworkError = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * What a cancelled request rejects with: named 'AbortError' like the DOMException fetch throws,
 * but a plain Error, so it crosses comlink to a tab with its name.
 */
export const abortError = (label: string) => {
  const error = new Error(`${label} was cancelled`);
  error.name = 'AbortError';
  return error;
};

/** Ours, or the DOMException a fetch (or the reading of its body) throws on abort. */
export const isAbortError = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as Error).name === 'AbortError';

export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

/**
 * 401 'session_changed': `what` (a read, a call) belonged to a session that is no longer the
 * current one (signed out, or another account signed in), so it was dropped, not stored or
 * sent again.
 */
export const sessionChanged = (what: string, why = 'the session changed while it loaded') =>
  new ApiError(401, 'session_changed', `${what}: ${why}`);

/** A wait in words, as the server words its own ("1 second", "45 seconds", "2 minutes"). */
export const waitInWords = (ms: number): string => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/**
 * A 429 that came without a message of the server's (a proxy's or a gateway's answer): the
 * spec has no text for it (000 §8), so a sentence a user reads, with the wait the answer asked
 * for when it gave one; never "HTTP 429". Code `rate_limited`, as the server's own refusals.
 */
export const rateLimited = (retryAfterMs?: number) =>
  new ApiError(
    429,
    'rate_limited',
    retryAfterMs
      ? `Too many requests right now. Try again in ${waitInWords(retryAfterMs)}.`
      : 'Too many requests right now. Try again in a moment.',
    undefined,
    retryAfterMs,
  );

export const isRateLimited = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 429;

/** What the worker tells the tabs when the server asks it to send a saved change later. */
export const changeDelayedMessage = (waitMs: number) =>
  `Too many changes at once: yours is saved and will be sent again in ${waitInWords(waitMs)}.`;
