import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../contract/common';
import { resolveAuth } from './auth';
import type { AppDeps, AppEnv } from './context';
import { serverDomains } from './domains';
import { ApiError, validationError } from './errors';
import { TRANSFER_PREFIX } from './uploads';
import { earlyAnswers } from './http/early-answer';
import { refuseUnstorableText } from './http/unstorable-text';
import { idempotency } from './idempotency';
import { createStaticHandler } from './static';

export const API_VERSION = '0.1.0';
const MAX_BODY_BYTES = 1024 * 1024;

const codeFor = (status: number): ErrorBody['error'] =>
  status === 401
    ? 'unauthorized'
    : status === 403
      ? 'forbidden'
      : status === 404
        ? 'not_found'
        : status === 409
          ? 'conflict'
          : status === 429
            ? 'rate_limited'
            : status >= 500
              ? 'internal'
              : 'bad_request';

/**
 * The HTTP app: the API under /api (every endpoint of contract/endpoints.ts, served by the
 * domains of domains.ts, validated by its schemas, documented at /api/openapi.json) and the
 * built single-page app for everything else.
 */
export const createApp = (deps: AppDeps) => {
  const app = new OpenAPIHono<AppEnv>({
    // A zod failure of a body or query becomes a 400 naming each field.
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error.issues);
    },
  });

  // Outermost: an answer given before its request's body was read must still leave the
  // connection usable, or close it (http/early-answer.ts).
  app.use('*', earlyAnswers());
  app.use('*', async (c, next) => {
    deps.metrics.requests++;
    if (c.req.method === 'GET' && c.req.path === '/api/auth/session') deps.metrics.authPolls++;
    await next();
  });
  // API answers are the caller's own (the sign-in answer holds tokens): no cache keeps them.
  // Outermost, so that errors and refusals from any middleware below carry it too.
  app.use('/api/*', async (c, next) => {
    await next();
    c.res.headers.set('cache-control', 'no-store');
  });
  // The app loads only its own scripts, workers and API; inline styles are react-hot-toast's.
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        workerSrc: ["'self'"],
        connectSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Card thumbnails and document images come from publishers, over https only (002 §5).
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      xFrameOptions: 'DENY',
      referrerPolicy: 'strict-origin-when-cross-origin',
      crossOriginEmbedderPolicy: false,
    }),
  );
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      c.json<ErrorBody>(
        { error: 'bad_request', message: 'request body is too large (limit 1 MiB)' },
        413,
      ),
  });
  // Uploaded files stream to storage under their own limit (uploads/transfer.ts).
  app.use('/api/*', (c, next) =>
    c.req.path.startsWith(TRANSFER_PREFIX) ? next() : limitBody(c, next),
  );
  // Text PostgreSQL cannot store (U+0000, unpaired surrogates): 400 naming where, before any
  // guard, idempotency record or route sees it (http/unstorable-text.ts).
  app.use('/api/*', refuseUnstorableText(deps.product));
  app.use('/api/*', resolveAuth(deps));
  for (const domain of serverDomains) domain.guard?.(app, deps);
  // A transfer is a PUT of a file to its own key (idempotent by nature), streamed: the
  // idempotency record would read the whole body into memory first.
  const keyed = idempotency(deps);
  app.use('/api/*', (c, next) =>
    c.req.path.startsWith(TRANSFER_PREFIX) ? next() : keyed(c, next),
  );
  for (const domain of serverDomains) domain.register(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'token', {
    type: 'apiKey',
    in: 'header',
    name: 'token',
    description: 'The id token from sign-in or refresh',
  });
  app.doc('/api/openapi.json', {
    openapi: '3.0.0',
    info: {
      title: `${deps.product} workspace API`,
      version: API_VERSION,
      description: 'Every call of contract/endpoints.ts. Mutations accept an idempotency-key.',
    },
  });

  app.all('/api/*', (c) =>
    c.json<ErrorBody>(
      { error: 'not_found', message: `no such endpoint: ${c.req.method} ${c.req.path}` },
      404,
    ),
  );
  app.get('*', createStaticHandler(deps.distDir));
  app.notFound((c) => c.text(`not found: ${c.req.method} ${c.req.path}`, 404));

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.body(), err.status, err.headers);
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      const message =
        status === 400 && /json/i.test(err.message)
          ? 'request body is not valid JSON'
          : status === 415
            ? 'request body must be JSON: send content-type: application/json'
            : err.message || `request failed with status ${status}`;
      return c.json<ErrorBody>({ error: codeFor(status), message }, status);
    }
    // The detail goes to the log, never to the caller.
    deps.log(
      `internal error on ${c.req.method} ${c.req.path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return c.json<ErrorBody>({ error: 'internal', message: 'internal error' }, 500);
  });

  return app;
};

export type App = ReturnType<typeof createApp>;
