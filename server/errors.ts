import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../contract/common';

type ErrorCode = ErrorBody['error'];

/** Thrown by handlers; the app turns it into an ErrorBody response with this status. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ErrorBody['issues'],
    /** Extra response headers, such as Retry-After on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  body(): ErrorBody {
    return {
      error: this.code,
      message: this.message,
      ...(this.issues ? { issues: this.issues } : {}),
    };
  }
}

export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);

/** A 429 telling the caller when to come back, in the message and in Retry-After. */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', message, undefined, {
    'retry-after': String(retryAfterSeconds),
  });

/** The shape of a zod 4 issue that we read (kept structural so any zod error fits). */
type ZodIssueLike = {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
};

const describeIssue = (issue: ZodIssueLike): { path: string; message: string } => {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const keys = issue.keys.map((k) => (path ? `${path}.${k}` : k)).join(', ');
    return { path: keys, message: `unknown field${issue.keys.length > 1 ? 's' : ''} not allowed` };
  }
  // zod's stock text for a missing field is "Invalid input: expected string, received undefined".
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
    return { path: path || 'body', message: `${path || 'body'} is required` };
  }
  return { path: path || 'body', message: issue.message };
};

/** A 400 naming every field at fault; the message leads with the first ("email: ..."). */
export const validationError = (issues: readonly ZodIssueLike[]): ApiError => {
  const described = issues.map(describeIssue);
  const first = described[0] ?? { path: 'body', message: 'is invalid' };
  return new ApiError(400, 'bad_request', `${first.path}: ${first.message}`, described);
};
