import './zod-jitless';
import { z } from 'zod';

/**
 * The building blocks every domain file uses: an endpoint definition, a worker op, bounded
 * strings and JSON, and `defineDomain`, which puts one domain's endpoints, ops, change entities
 * and mirror store names in one object (registered once in domains.ts).
 */

/** One API call: method, path (relative to /api), request and response. */
export type EndpointDef = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /** false for the calls a signed-out visitor makes. */
  auth: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  response: z.ZodType;
  /** HTTP status of success. */
  status: 200 | 201;
  summary: string;
};

export const endpoint = <const T extends EndpointDef>(d: T) => d;

/** One worker operation: its input and output schemas (AFFiNE's `[Input, Output]` pairs). */
export type OpDef = { input: z.ZodType; output: z.ZodType; public?: boolean };
/** `public`: a signed-out tab may call it (a shared document's reads); others need a token. */
export const op = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  options?: { public: true },
) => ({
  input,
  output,
  ...(options ? { public: options.public } : {}),
});

export const Empty = z.object({}).strict();

/**
 * A domain as the contract sees it. `changes`: the change-feed entities it owns, each with the
 * schema of its `data`. `stores`: the mirror stores the worker keeps for it, the names a tab
 * hears in a 'changed' event (the worker declares their key paths and indexes).
 */
export type DomainContract = {
  name: string;
  endpoints: Record<string, EndpointDef>;
  ops: Record<string, OpDef>;
  changes: Record<string, z.ZodType>;
  stores: readonly string[];
};
export const defineDomain = <const D extends DomainContract>(d: D) => d;

/** Limits every request string and list is held to, unless a field says otherwise. */
export const LIMITS = {
  id: 128,
  name: 200,
  text: 2_000,
  email: 320,
  path: 2_048,
  /** A JSON value (a debug log) serialised. */
  jsonChars: 20_000,
  /** A JSON value's nesting. */
  jsonDepth: 8,
  /** Keys of one JSON object, items of one JSON array. */
  jsonItems: 200,
} as const;

/** A required string of at most `max` characters; the messages name the field. */
export const text = (field: string, max: number = LIMITS.text) =>
  z
    .string({ message: `${field} must be text` })
    .max(max, { message: `${field} must be at most ${max} characters` });

/** A whole number read from a query string, min..max, `fallback` when absent; messages name it. */
export const queryInt = (field: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ message: `${field} must be a number` })
    .int({ message: `${field} must be a whole number` })
    .min(min, { message: `${field} must be between ${min} and ${max}` })
    .max(max, { message: `${field} must be between ${min} and ${max}` })
    .default(fallback);

/** An id: non-empty, at most 128 characters. */
export const id = (field = 'id') =>
  text(field, LIMITS.id).min(1, { message: `${field} must not be empty` });

/**
 * What is wrong with a JSON value's size, or null. Iterative (a value nested 5,000 deep must
 * not overflow the stack that checks it).
 */
export const jsonProblem = (
  value: unknown,
  limits: { depth: number; chars: number; items: number } = {
    depth: LIMITS.jsonDepth,
    chars: LIMITS.jsonChars,
    items: LIMITS.jsonItems,
  },
): string | null => {
  const stack: Array<[unknown, number]> = [[value, 0]];
  let chars = 0;
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') {
      chars += typeof current === 'string' ? current.length + 2 : String(current).length;
      if (chars > limits.chars) return `is larger than ${limits.chars} characters`;
      continue;
    }
    if (depth >= limits.depth) return `is nested deeper than ${limits.depth} levels`;
    const entries = Array.isArray(current) ? current : Object.entries(current);
    if (entries.length > limits.items) return `has more than ${limits.items} items in one place`;
    for (const entry of entries) {
      if (Array.isArray(current)) stack.push([entry, depth + 1]);
      else {
        const [key, inner] = entry as [string, unknown];
        chars += key.length + 3;
        stack.push([inner, depth + 1]);
      }
    }
    if (chars > limits.chars) return `is larger than ${limits.chars} characters`;
  }
  return null;
};

/** A JSON object within LIMITS (depth, size, items); the message names the field. */
export const boundedJsonObject = (field: string) =>
  z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const problem = jsonProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
  });
