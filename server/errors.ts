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

/** At most this many problems are listed in one error body (issue 17: 50,000 unknown keys). */
export const MAX_LISTED_PROBLEMS = 20;
/** A field name or key is shown up to this many characters (a key may be 1 MiB long). */
const MAX_NAME_CHARS = 100;

const shortName = (name: string) =>
  name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}…` : name;

type Problem = { path: string; message: string };

/** How many problems an issue stands for: each unknown key is one. */
const problemsIn = (issue: ZodIssueLike) =>
  issue.code === 'unrecognized_keys' && issue.keys?.length ? issue.keys.length : 1;

/** An issue as problems listed, at most `budget` of them (unknown keys share one entry). */
const describeIssue = (issue: ZodIssueLike, budget: number): { entry: Problem; listed: number } => {
  const path = shortName(issue.path.map(String).join('.'));
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const shown = issue.keys.slice(0, budget).map((k) => shortName(path ? `${path}.${k}` : k));
    return {
      entry: {
        path: shown.join(', '),
        message: `unknown field${shown.length > 1 ? 's' : ''} not allowed`,
      },
      listed: shown.length,
    };
  }
  // zod's stock text for a missing field is "Invalid input: expected string, received undefined".
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
    return { entry: { path: path || 'body', message: `${path || 'body'} is required` }, listed: 1 };
  }
  return { entry: { path: path || 'body', message: issue.message }, listed: 1 };
};

/**
 * A 400 naming the fields at fault; the message leads with the first ("email: ..."). At most
 * MAX_LISTED_PROBLEMS problems are listed (each unknown key counts as one), and the message
 * says how many more there were: a body of 50,000 unknown keys answers in a few hundred bytes.
 */
export const validationError = (issues: readonly ZodIssueLike[]): ApiError => {
  const described: Problem[] = [];
  let listed = 0;
  let total = 0;
  for (const issue of issues) {
    total += problemsIn(issue);
    if (listed >= MAX_LISTED_PROBLEMS) continue;
    const { entry, listed: n } = describeIssue(issue, MAX_LISTED_PROBLEMS - listed);
    described.push(entry);
    listed += n;
  }
  const first = described[0] ?? { path: 'body', message: 'is invalid' };
  const more = total - listed;
  const left =
    more > 0
      ? ` (and ${more.toLocaleString('en-US')} more problem${more > 1 ? 's' : ''} not listed)`
      : '';
  return new ApiError(400, 'bad_request', `${first.path}: ${first.message}${left}`, described);
};
