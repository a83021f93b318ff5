import { createHash, randomBytes } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  DEFAULT_MIME_TYPE,
  UPLOAD_LINK_TTL_S,
  UPLOAD_MIME_BY_EXTENSION,
  UPLOAD_TRANSFER_PATH,
  type CompleteFile,
  type UploadConfig,
} from '../../contract/uploads';
import { fileTypeOf } from '../../contract/upload-files';
import { afterCommit, transact, type AppDeps, type AppEnv } from '../context';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { routesFor } from '../http/define';
import { iso } from '../time';
import { noStorage, uploadDepsOf, type UploadDeps } from './context';
import { filesByKeys, toUploadedFile, type FileRow } from './files';
import { storageMessage, storageStanding } from './pricing';
import { deleteUploadedDocument } from './remove';

/** The local transfer link's secret is kept only as this hash. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

const MB = 1048576;

export const configOf = (u: UploadDeps): UploadConfig => ({
  file_count_limit: u.settings.fileCountLimit,
  file_size_limit: u.settings.fileSizeLimitMb,
  file_types: Object.values(UPLOAD_MIME_BY_EXTENSION),
  file_name_suffixes: [],
  allow_folder_upload: u.settings.allowFolderUpload,
  mime_types: Object.fromEntries(
    Object.entries(UPLOAD_MIME_BY_EXTENSION).map(([ext, mime]) => [mime, ext]),
  ),
});

const tooLarge = (name: string, limitMb: number) =>
  new ApiError(413, 'bad_request', `File ${name} size exceeds the limit of ${limitMb} MB.`);

/** Over the plan's storage: 403 with the upsell's words (the client shows the pricing modal). */
export const overStorage = async (db: Db, userId: string, u: UploadDeps) => {
  const standing = await storageStanding(db, userId, u.settings);
  const m = storageMessage(standing.plan, standing.used, u.settings);
  return new ApiError(403, 'forbidden', `${m.header}: ${m.body} ${m.subtext}`);
};

const notFound = (what: string) => new ApiError(404, 'not_found', what);

/** Deletes the user's files (rows, documents, then bytes), e.g. PUT complete action remove. */
export async function removeFiles(
  c: Parameters<typeof transact>[0],
  deps: AppDeps,
  u: UploadDeps,
  userId: string,
  rows: FileRow[],
) {
  // The uploaded files' bytes, and what later domains stored of their documents.
  const keys = rows.map((row) => row.key);
  await transact(c, async (db) => {
    for (const row of rows) {
      if (row.document_id)
        keys.push(...(await deleteUploadedDocument(db, userId, row.document_id, deps.now())));
      await db.deleteFrom('upload_files').where('key', '=', row.key).execute();
    }
  });
  afterCommit(c, () => {
    for (const key of keys) {
      u.storage
        .delete(key)
        .catch((err: unknown) => deps.log(`upload ${key}: could not delete: ${String(err)}`));
    }
  });
}

/**
 * The endpoints of contract/uploads.ts (JSON ones; the transfer, the download and the share
 * variants of GET /doc/{source} are in transfer.ts and share.ts). Every query is scoped to the
 * caller: another user's keys, feeds and documents answer as if they did not exist.
 */
export const registerUploadRoutes = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const on = routesFor('uploads', app, deps.product);
  const need = () => {
    const u = uploadDepsOf(deps);
    if (!u) throw noStorage();
    return u;
  };

  on('uploadConfig', async () => ({ config: configOf(need()) }));

  on('uploadInit', async (c, { body, auth }) => {
    const u = need();
    const userId = auth.user.id;
    const limit = u.settings.fileCountLimit;
    if (body.files.length > limit) {
      throw new ApiError(400, 'bad_request', `You can only upload ${limit} files at a time.`);
    }
    const ids = new Set<string>();
    for (const f of body.files) {
      if (ids.has(f.id)) throw new ApiError(400, 'bad_request', `files[].id ${f.id} is repeated`);
      ids.add(f.id);
      if (f.size !== undefined && f.size / MB > u.settings.fileSizeLimitMb) {
        throw tooLarge(f.name, u.settings.fileSizeLimitMb);
      }
    }
    const standing = await storageStanding(c.var.db, userId, u.settings);
    const declared = body.files.reduce((n, f) => n + (f.size ?? 0), 0);
    if (standing.used >= standing.limit || standing.used + declared > standing.limit) {
      throw await overStorage(c.var.db, userId, u);
    }
    const now = deps.now();
    const prepared = await Promise.all(
      body.files.map(async (f) => {
        const key = `uploads/${randomBytes(16).toString('hex')}`;
        const mime = fileTypeOf({ name: f.name, type: f.mime_type }) || DEFAULT_MIME_TYPE;
        const direct = await u.storage.presignPut(key, {
          contentType: mime,
          size: f.size,
          expiresInS: UPLOAD_LINK_TTL_S,
        });
        const secret = direct ? null : randomBytes(24).toString('base64url');
        const link = direct ?? {
          url: `/api${UPLOAD_TRANSFER_PATH}/${key.slice('uploads/'.length)}?signature=${secret}`,
          headers: { 'content-type': mime },
        };
        const row: FileRow = {
          key,
          user_id: userId,
          client_id: f.id,
          name: f.name,
          mime_type: mime,
          source: body.source,
          report_type: body.report_type ?? null,
          status: 'UPLOADING',
          size: null,
          declared_size: f.size ?? null,
          transfer_hash: secret ? secretHash(secret) : null,
          transfer_expires: iso(now + UPLOAD_LINK_TTL_S * 1000),
          feed_id: null,
          document_id: null,
          error: null,
          num_pages: null,
          run_at: null,
          lease_owner: null,
          lease_until: null,
          attempts: 0,
          created_at: iso(now),
          updated_at: iso(now),
        };
        return { row, link, id: f.id };
      }),
    );
    await transact(c, (db) =>
      db
        .insertInto('upload_files')
        .values(prepared.map((p) => p.row))
        .execute(),
    );
    return {
      upload_configs: prepared.map((p) => ({
        id: p.id,
        upload_link: p.link.url,
        metadata_fields: { bucket: u.storage.bucket, key: p.row.key },
        headers: p.link.headers,
        method: 'PUT' as const,
      })),
    };
  });

  /**
   * The files of a complete call, checked: each the caller's, in this bucket, its bytes
   * stored (S3: looked up, as the bytes went straight there) and within the size limit; then
   * the caller's storage within the plan. A refusal deletes the refused bytes: a file is
   * stored whole and counted, or not at all.
   */
  const transferred = async (
    db: Db,
    userId: string,
    u: UploadDeps,
    files: CompleteFile[],
  ): Promise<Array<FileRow & { size: number }>> => {
    const rows = new Map(
      (
        await filesByKeys(
          db,
          userId,
          files.map((f) => f.key),
        )
      ).map((r) => [r.key, r]),
    );
    const out: Array<FileRow & { size: number }> = [];
    for (const f of files) {
      const row = rows.get(f.key);
      if (!row || f.bucket !== u.storage.bucket) {
        throw notFound(`no such upload: ${f.metadata.name} (${f.key})`);
      }
      if (row.status !== 'UPLOADING' && row.status !== 'UPLOADED') {
        throw new ApiError(409, 'conflict', `${row.name} is already ${row.status}`);
      }
      let size = row.size === null ? null : Number(row.size);
      if (size === null) {
        const head = await u.storage.head(row.key);
        if (!head) {
          throw new ApiError(
            400,
            'bad_request',
            `${row.name} was not uploaded: send its bytes to its upload_link first`,
          );
        }
        size = head.size;
        if (size / MB > u.settings.fileSizeLimitMb) {
          await u.storage.delete(row.key);
          throw tooLarge(row.name, u.settings.fileSizeLimitMb);
        }
      }
      out.push({ ...row, size });
    }
    const standing = await storageStanding(db, userId, u.settings);
    const arriving = out.filter((r) => r.size !== null && rows.get(r.key)!.size === null);
    const total = standing.used + arriving.reduce((n, r) => n + r.size, 0);
    if (total > standing.limit) {
      const refusal = await overStorage(db, userId, u);
      for (const r of out) await u.storage.delete(r.key);
      await db
        .updateTable('upload_files')
        .set({ size: null, status: 'UPLOADING', updated_at: iso(deps.now()) })
        .where('user_id', '=', userId)
        .where(
          'key',
          'in',
          out.map((r) => r.key),
        )
        .execute();
      throw refusal;
    }
    return out;
  };

  const queue = async (db: Db, rows: Array<FileRow & { size: number }>, feedId: string) => {
    const at = iso(deps.now());
    for (const r of rows) {
      await db
        .updateTable('upload_files')
        .set({
          size: r.size,
          feed_id: feedId,
          status: 'PROCESSING',
          run_at: at,
          transfer_hash: null,
          lease_owner: null,
          lease_until: null,
          updated_at: at,
        })
        .where('key', '=', r.key)
        .execute();
    }
  };

  const answer = async (db: Db, userId: string, feedId: string, u: UploadDeps) => ({
    feed_id: feedId,
    files: (
      await db
        .selectFrom('upload_files')
        .selectAll()
        .where('user_id', '=', userId)
        .where('feed_id', '=', feedId)
        .orderBy('created_at')
        .orderBy('key')
        .execute()
    ).map((r) => toUploadedFile(r, u.storage.bucket)),
  });

  on('uploadComplete', async (c, { body, auth }) => {
    const u = need();
    const userId = auth.user.id;
    const rows = await transferred(c.var.db, userId, u, body.files);
    const feedId = randomBytes(12).toString('base64url');
    const out = await transact(c, async (db) => {
      await db
        .insertInto('upload_feeds')
        .values({
          id: feedId,
          user_id: userId,
          source: body.source,
          report_name: body.report_name ?? null,
          report_type: body.report_type ?? null,
          created_at: iso(deps.now()),
        })
        .execute();
      await queue(db, rows, feedId);
      return answer(db, userId, feedId, u);
    });
    afterCommit(c, u.kick);
    return out;
  });

  on('uploadCompleteUpdate', async (c, { body, auth }) => {
    const u = need();
    const userId = auth.user.id;
    const feed = await c.var.db
      .selectFrom('upload_feeds')
      .select('id')
      .where('id', '=', body.feed_id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!feed) throw notFound(`no such uploads feed: ${body.feed_id}`);
    if (body.action === 'remove') {
      const rows = await filesByKeys(
        c.var.db,
        userId,
        body.files.map((f) => f.key),
      );
      for (const f of body.files) {
        const row = rows.find((r) => r.key === f.key);
        if (!row || row.feed_id !== body.feed_id) {
          throw notFound(`no such file in this feed: ${f.metadata.name}`);
        }
      }
      await removeFiles(c, deps, u, userId, rows);
      return answer(c.var.db, userId, body.feed_id, u);
    }
    const rows = await transferred(c.var.db, userId, u, body.files);
    const out = await transact(c, async (db) => {
      await queue(db, rows, body.feed_id);
      return answer(db, userId, body.feed_id, u);
    });
    afterCommit(c, u.kick);
    return out;
  });

  on('uploadStatus', async (c, { query, auth }) => {
    const u = need();
    const userId = auth.user.id;
    if (query.feed_id) {
      const feed = await c.var.db
        .selectFrom('upload_feeds')
        .select('id')
        .where('id', '=', query.feed_id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!feed) throw notFound(`no such uploads feed: ${query.feed_id}`);
      const { files } = await answer(c.var.db, userId, query.feed_id, u);
      return { feed_id: query.feed_id, files, done: files.every(settled) };
    }
    const keys = (query.keys ?? '').split(',').filter(Boolean);
    if (keys.length === 0) throw new ApiError(400, 'bad_request', 'feed_id or keys is required');
    if (keys.length > 100) throw new ApiError(400, 'bad_request', 'keys holds at most 100 keys');
    const files = (await filesByKeys(c.var.db, userId, keys)).map((r) =>
      toUploadedFile(r, u.storage.bucket),
    );
    return { feed_id: null, files, done: files.every(settled) };
  });

  on('uploadFiles', async (c, { query, auth }) => {
    const u = need();
    let q = c.var.db
      .selectFrom('upload_files')
      .selectAll()
      .where('user_id', '=', auth.user.id)
      .orderBy('created_at', 'desc')
      .orderBy('key', 'desc')
      .limit(query.limit + 1);
    if (query.before) {
      const [at, key] = query.before.split('|');
      if (!at || !key) throw new ApiError(400, 'bad_request', 'before must be a cursor from next');
      q = q.where((eb) =>
        eb.or([
          eb('created_at', '<', at),
          eb.and([eb('created_at', '=', at), eb('key', '<', key)]),
        ]),
      );
    }
    const rows = await q.execute();
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      files: page.map((r) => toUploadedFile(r, u.storage.bucket)),
      next: rows.length > query.limit && last ? `${last.created_at}|${last.key}` : null,
    };
  });
};

const settled = (f: { status: string }) => f.status === 'COMPLETED' || f.status === 'FAILED';
