import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod';
import { DocResult } from '../../contract/documents';
import { DocDownloadQuery, ShareQuery, ShareResult } from '../../contract/uploads';
import type { AppDeps, AppEnv } from '../context';
import type { Db } from '../db/schema';
import { CARD_COLUMNS, toCard, visibleDocuments, type CardRow } from '../documents';
import { ApiError, validationError } from '../errors';
import { requireAuth } from '../http/define';
import { iso } from '../time';
import { noStorage, uploadDepsOf } from './context';
import { parseRange } from './range';
import './tables';

/**
 * Sharing (002 §7) and download. Both variants of GET /doc/{source} that the documents
 * domain's route does not serve are answered here, ahead of it (a guard):
 * - `share=true` (signed in): a new public access key for a document the user may see,
 *   `results[0].public_access_key`; only its SHA-256 is stored, so each call makes a new key
 *   and revoking (DELETE /doc/{source}/share) ends them all;
 * - `public_access_key` (signed out or in): the shared document, as GET /doc/{source}
 *   answers it, while the key is live; a revoked or unknown key is 404.
 * GET /doc/{source}/download streams an uploaded document's original file to its owner, or to
 * anyone with a live key, with Content-Disposition: attachment; one byte range of it with a
 * Range header (206, range.ts), so the PDF viewer reads only the pages it shows.
 */

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

const notFound = (deeplink: string) =>
  new ApiError(404, 'not_found', `no such document: ${deeplink}`);

const parse = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error.issues);
  return r.data;
};

/** The document a live key opens (`source`: key or id), or undefined. */
const sharedDocument = (db: Db, source: string, deeplink: string, key: string) =>
  db
    .selectFrom('document_shares as sh')
    .innerJoin('documents as d', 'd.id', 'sh.document_id')
    .innerJoin('sources as s', 's.id', 'd.source_id')
    .select([...CARD_COLUMNS, 'd.html', 'd.plain_text as full_text'])
    .where('sh.key_hash', '=', keyHash(key))
    .where('sh.revoked_at', 'is', null)
    .where('d.id', '=', deeplink)
    .where((eb) => eb.or([eb('s.key', '=', source), eb('s.id', '=', source)]))
    .executeTakeFirst();

export const registerShareGuard = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  app.use('/api/doc/:source', async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const raw = c.req.query();
    if (raw.share !== 'true' && raw.public_access_key === undefined) return next();
    const source = c.req.param('source');
    const query = parse(ShareQuery, raw);
    if (query.share === 'true') {
      await requireAuth(c as Context<AppEnv>, async () => undefined);
      const userId = c.var.auth!.user.id;
      const doc = await visibleDocuments(c.var.db, userId)
        .select('d.id')
        .where('d.id', '=', query.deeplink)
        .where((eb) => eb.or([eb('s.key', '=', source), eb('s.id', '=', source)]))
        .executeTakeFirst();
      if (!doc) throw notFound(query.deeplink);
      const key = randomBytes(24).toString('base64url');
      await c.var.db
        .insertInto('document_shares')
        .values({
          key_hash: keyHash(key),
          document_id: doc.id,
          user_id: userId,
          created_at: iso(deps.now()),
          revoked_at: null,
        })
        .execute();
      return c.json(
        ShareResult.parse({ results: [{ deeplink: doc.id, public_access_key: key }] }),
        200,
      );
    }
    const row = await sharedDocument(c.var.db, source, query.deeplink, query.public_access_key!);
    if (!row) throw notFound(query.deeplink);
    const card = toCard(row as unknown as CardRow);
    return c.json(
      DocResult.parse({
        results: [{ ...card, content: row.html, body: row.full_text, read: false }],
      }),
      200,
    );
  });
};

/** Content-Disposition for a file name: ASCII fallback plus the UTF-8 name (RFC 6266). */
export const contentDisposition = (name: string) => {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

export const registerDownload = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  app.get('/api/doc/:source/download', async (c) => {
    const u = uploadDepsOf(deps);
    if (!u) throw noStorage();
    const source = c.req.param('source');
    const query = parse(DocDownloadQuery, c.req.query());
    let q = c.var.db
      .selectFrom('upload_files as f')
      .innerJoin('documents as d', 'd.id', 'f.document_id')
      .innerJoin('sources as s', 's.id', 'd.source_id')
      .select(['f.key', 'f.name', 'f.mime_type', 'f.size'])
      .where('d.id', '=', query.deeplink)
      .where((eb) => eb.or([eb('s.key', '=', source), eb('s.id', '=', source)]));
    if (query.public_access_key !== undefined) {
      const hash = keyHash(query.public_access_key);
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('document_shares as sh')
            .select('sh.key_hash')
            .where('sh.key_hash', '=', hash)
            .where('sh.revoked_at', 'is', null)
            .whereRef('sh.document_id', '=', 'd.id'),
        ),
      );
    } else {
      await requireAuth(c as Context<AppEnv>, async () => undefined);
      q = q.where('f.user_id', '=', c.var.auth!.user.id);
    }
    const file = await q.executeTakeFirst();
    if (!file) throw notFound(query.deeplink);
    const head = await u.storage.head(file.key);
    if (!head) throw new ApiError(404, 'not_found', `the file of ${query.deeplink} is missing`);
    const asked = parseRange(c.req.header('range'), head.size);
    const headers: Record<string, string> = {
      'content-type': file.mime_type,
      'content-disposition': contentDisposition(file.name),
      'accept-ranges': 'bytes',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    };
    if (asked.kind === 'unsatisfiable') {
      return new Response(null, {
        status: 416,
        headers: { ...headers, 'content-range': `bytes */${head.size}` },
      });
    }
    const range = asked.kind === 'range' ? asked.range : undefined;
    const stream = await u.storage.get(file.key, range);
    return new Response(
      // A Node stream as the web body: read as the client reads, never whole.
      Readable.toWeb(stream) as unknown as ReadableStream,
      range
        ? {
            status: 206,
            headers: {
              ...headers,
              'content-length': String(range.end - range.start + 1),
              'content-range': `bytes ${range.start}-${range.end}/${head.size}`,
            },
          }
        : { status: 200, headers: { ...headers, 'content-length': String(head.size) } },
    );
  });
};
