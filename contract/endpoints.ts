import type { z } from 'zod';
import { allEndpoints } from './domains';

/**
 * The API catalogue: every call's method, path (relative to /api), request and response,
 * merged from the domains (domains.ts). The server registers its routes from these and the
 * worker's client calls through them, so a shape is written once. `{product}` in a path is the
 * PRODUCT setting (see `endpointPath`).
 */
export const endpoints = allEndpoints;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
type Field<E, K extends string> = E extends Record<K, infer S extends z.ZodType> ? S : never;
export type EndpointBody<N extends EndpointName> = z.input<Field<Endpoints[N], 'body'>>;
export type EndpointQuery<N extends EndpointName> = z.input<Field<Endpoints[N], 'query'>>;
export type EndpointResponse<N extends EndpointName> = z.infer<Endpoints[N]['response']>;

/** A mutation is any call that is not a GET; each carries an idempotency key. */
export const isMutation = (name: EndpointName) => endpoints[name].method !== 'get';

/** The path with `{product}` filled in (relative to /api). */
export const endpointPath = (name: EndpointName, product: string) =>
  endpoints[name].path.replace('{product}', product);
