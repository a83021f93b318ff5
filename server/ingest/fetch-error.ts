/**
 * Why a fetch failed, with a message a user can act on ("the server answered 404 Not Found",
 * "timed out after 15 s"): it becomes the source's last_error, and probeUrl's 400 message.
 */
export type FetchErrorCode =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'private_address'
  | 'unreachable'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'redirect_loop'
  | 'http_status'
  | 'parse';

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    /** The short cause for 'unreachable' ("connection refused"). */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

/** The user-facing words for any error thrown while reading a source. */
export const describeError = (err: unknown): string => {
  if (err instanceof FetchError) return err.message;
  // Anything else is our own failure, not the source's: say so without internals.
  return 'the source could not be read (internal error)';
};
