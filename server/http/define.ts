import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { ErrorBody } from '../../contract/common';
import { LIMITS, type EndpointDef } from '../../contract/define';
import type { domains } from '../../contract/domains';
import {
  endpointPath,
  endpoints,
  type EndpointName,
  type Endpoints,
} from '../../contract/endpoints';
import type { AppContext, AppEnv, AuthInfo } from '../context';
import { ApiError } from '../errors';

type Def<N extends EndpointName> = Endpoints[N];
type Parsed<D, K extends string> =
  D extends Record<K, infer S extends z.ZodType> ? z.output<S> : undefined;

/** What a handler receives: the validated body and query, and the caller when auth is on. */
export type HandlerInput<N extends EndpointName> = {
  /** The `{name}` segments of the path, decoded (each 1 to 128 characters, else 400). */
  params: Record<string, string>;
  body: Parsed<Def<N>, 'body'>;
  query: Parsed<Def<N>, 'query'>;
  auth: Def<N>['auth'] extends true ? AuthInfo : AuthInfo | null;
};

export type EndpointHandler<N extends EndpointName> = (
  c: AppContext,
  input: HandlerInput<N>,
) => Promise<z.input<Def<N>['response']>>;

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});

/** No token or an unknown one: 401. A known id token past its expiry (or revoked): 403. */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.auth) return next();
  if (c.var.authProblem === 'expired') {
    throw new ApiError(403, 'token_expired', 'id token has expired; refresh it');
  }
  throw new ApiError(
    401,
    'unauthorized',
    c.var.authProblem === 'unknown'
      ? 'token is not recognised; sign in again'
      : 'sign-in required: send the id token in the token header',
  );
};

/**
 * For a route that takes a known id token even past its expiry or revocation (the caller is
 * then `c.var.staleAuth`): no token or an unknown one is still 401.
 */
export const requireKnownToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.auth || c.var.staleAuth) return next();
  return requireAuth(c, next);
};

export type EndpointOptions = {
  /**
   * Accept a known but expired or revoked id token (a server-side leniency of this route; the
   * handler's `auth` is then that token's owner and `c.var.auth` stays null).
   */
  acceptStaleToken?: boolean;
};

/**
 * Registers one endpoint of the contract: path, method, body and query schemas come from
 * contract/endpoints.ts (so the OpenAPI document and the validation match the client), and
 * the handler's answer is parsed with the response schema before it leaves.
 */
export const defineEndpoint = <N extends EndpointName>(
  app: OpenAPIHono<AppEnv>,
  product: string,
  name: N,
  handler: EndpointHandler<N>,
  options: EndpointOptions = {},
): void => {
  // Widened once here so the per-endpoint literal types stay intact for handler authors.
  const e: EndpointDef = endpoints[name];
  const route = createRoute({
    method: e.method,
    path: `/api${endpointPath(name, product)}`,
    summary: e.summary,
    operationId: name,
    ...(e.auth
      ? {
          middleware: [options.acceptStaleToken ? requireKnownToken : requireAuth],
          security: [{ token: [] }],
        }
      : {}),
    request: {
      ...(e.query ? { query: e.query as z.ZodObject } : {}),
      ...(e.body
        ? { body: { required: true, content: { 'application/json': { schema: e.body } } } }
        : {}),
    },
    responses: {
      [e.status]: {
        description: e.summary,
        content: { 'application/json': { schema: e.response } },
      },
      400: errorResponse('Invalid request: the message names the field'),
      ...(e.auth
        ? {
            401: errorResponse('No token, or an unknown one'),
            ...(options.acceptStaleToken
              ? {}
              : { 403: errorResponse('The id token has expired: refresh it') }),
          }
        : {}),
      500: errorResponse('Internal error'),
    },
  });
  const run = handler as unknown as (c: AppContext, input: unknown) => Promise<unknown>;
  app.openapi(route, async (c) => {
    const req = c.req as unknown as { valid(target: 'json' | 'query'): unknown };
    const params = c.req.param() as Record<string, string>;
    for (const [key, value] of Object.entries(params)) {
      if (!value || value.length > LIMITS.id) {
        throw new ApiError(400, 'bad_request', `${key} must be 1 to ${LIMITS.id} characters`, [
          { path: key, message: `${key} must be 1 to ${LIMITS.id} characters` },
        ]);
      }
    }
    const input = {
      params,
      body: e.body ? req.valid('json') : undefined,
      query: e.query ? req.valid('query') : undefined,
      auth: c.var.auth ?? (options.acceptStaleToken ? c.var.staleAuth : null),
    };
    const out = e.response.parse(await run(c, input));
    return c.json(out as never, e.status);
  });
};

type DomainName = keyof typeof domains;
/** The endpoint names a contract domain declares. */
export type EndpointOf<D extends DomainName> = keyof (typeof domains)[D]['endpoints'] &
  EndpointName;

/**
 * `defineEndpoint` for one domain's routes: `on(name, handler)` accepts only the endpoints
 * that `contract/<domain>.ts` declares, so a domain folder cannot serve another's calls.
 */
export const routesFor =
  <D extends DomainName>(_domain: D, app: OpenAPIHono<AppEnv>, product: string) =>
  <N extends EndpointOf<D>>(
    name: N,
    handler: EndpointHandler<N>,
    options: EndpointOptions = {},
  ): void =>
    defineEndpoint(app, product, name, handler, options);
