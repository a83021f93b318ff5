import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '../../contract/endpoints';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

type Check = { check: string; maximum?: number };
type Def = {
  type: string;
  checks?: Array<{ _zod: { def: Check } }>;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const has = (def: Def, check: string) => (def.checks ?? []).some((c) => c._zod.def.check === check);

/** The places in a request schema where a client could send something unbounded. */
const unbounded = (schema: z.ZodType, path: string): string[] => {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape!).flatMap(([k, v]) => unbounded(v, `${path}.${k}`));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return unbounded(def.innerType!, path);
    case 'pipe':
      // z.preprocess is a transform piped into a schema: the transform bounds the raw value
      // itself (a note's JSON text is length-checked before it is parsed), the schema after it
      // bounds what it yields.
      return defOf(def.in!).type === 'transform'
        ? unbounded(def.out!, path)
        : unbounded(def.in!, path);
    case 'union':
      return def.options!.flatMap((o, i) => unbounded(o, `${path}|${i}`));
    case 'string':
      return has(def, 'max_length') ? [] : [`${path}: a string without a maximum length`];
    case 'array':
      return [
        ...(has(def, 'max_length') ? [] : [`${path}: a list without a maximum length`]),
        ...unbounded(def.element!, `${path}[]`),
      ];
    case 'record':
      // A record's size is held by a refinement: boundedJsonObject's depth and size check,
      // the overlay widths' count of types.
      if (!has(def, 'custom')) return [`${path}: a record without a size check`];
      return defOf(def.valueType!).type === 'unknown'
        ? []
        : [...unbounded(def.keyType!, `${path}{key}`), ...unbounded(def.valueType!, `${path}{}`)];
    case 'number':
    case 'boolean':
    case 'enum':
    case 'literal':
      return [];
    default:
      return [`${path}: a ${def.type} this test does not know how to bound`];
  }
};

describe('request limits in the contract', () => {
  it('bounds every string, list and record a request may carry', () => {
    const found = Object.entries(endpoints).flatMap(([name, e]) => [
      ...('body' in e && e.body ? unbounded(e.body, `${name} body`) : []),
      ...('query' in e && e.query ? unbounded(e.query, `${name} query`) : []),
    ]);
    expect(found).toEqual([]);
  });
});

const MEGABYTE_ID = 'x'.repeat(1_000_000);

/** A JSON text nested `depth` objects deep (JSON.stringify would overflow the stack building it). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

// Storage-independent: body and size limits are refused by the HTTP layer before any storage.
describe.each(STORAGE_INDEPENDENT)('oversized requests on %s', (storage) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(storage);
    token = (await h.signInDemo()).id_token;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers a debug log nested 5,000 deep with 400, and keeps serving', async () => {
    const res = await h.call('POST', '/debug-logs', {
      token,
      key: 'deep-log',
      rawBody: `{"logData":${nested(5000)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'bad_request',
      message: 'logData: logData is nested deeper than 8 levels',
      issues: [{ path: 'logData', message: 'logData is nested deeper than 8 levels' }],
    });
    expect((await h.call('GET', '/health')).status).toBe(200);
    expect(await h.db.selectFrom('debug_logs').selectAll().execute()).toEqual([]);
  });

  it.each([
    ['POST', '/notifications/read', { ids: [MEGABYTE_ID] }, 'ids.0'],
    ['POST', '/auth/refresh', { refresh_token: MEGABYTE_ID }, 'refresh_token'],
    ['POST', '/auth/signout', { refresh_token: MEGABYTE_ID }, 'refresh_token'],
    ['POST', '/auth/reset-password', { token: MEGABYTE_ID, password: 'long-enough' }, 'token'],
    ['POST', '/auth/signin', { email: `${MEGABYTE_ID}@example.com`, password: 'x' }, 'email'],
    ['PUT', '/user/preferences', { overlay_widths: { [MEGABYTE_ID]: 50 } }, 'overlay_widths'],
  ])('answers a 1 MB value in %s %s with 400 naming %s', async (method, path, body, field) => {
    const res = await h.call(method, path, { token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message.startsWith(`${field}`)).toBe(true);
  });
});
