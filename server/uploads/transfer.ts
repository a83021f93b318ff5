import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { UPLOAD_TRANSFER_PATH, UploadTransferResult } from '../../contract/uploads';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../errors';
import { userLimit } from '../http/user-limits';
import { TooLarge } from '../storage';
import { iso } from '../time';
import { noStorage, uploadDepsOf } from './context';
import { contentFamily, MAGIC_BYTES, WRONG_CONTENT } from './magic';
import { overStorage, secretHash } from './routes';
import { storageStanding } from './pricing';
import './tables';

/** Where the local disk's transfers arrive: PUT /api/upload/file/{id}?signature=... */
export const TRANSFER_PREFIX = `/api${UPLOAD_TRANSFER_PATH}/`;

class WrongContent extends Error {
  constructor() {
    super(WRONG_CONTENT);
  }
}

/** Passes bytes through once the first ones are a type allowed (magic.ts); else fails. */
const magicGate = () => {
  let head: Buffer[] = [];
  let seen = 0;
  let decided = false;
  const decide = (complete: boolean) => {
    const bytes = Buffer.concat(head);
    if (bytes.length > 0 && contentFamily(bytes.subarray(0, MAGIC_BYTES), complete) === null) {
      throw new WrongContent();
    }
    decided = true;
    head = [];
    return bytes;
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (decided) return done(null, chunk);
      head.push(chunk);
      seen += chunk.length;
      if (seen < MAGIC_BYTES) return done();
      try {
        done(null, decide(false));
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      if (decided) return done();
      try {
        const bytes = decide(true);
        if (bytes.length) this.push(bytes);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
};

const MB = 1048576;

/**
 * The local disk's transfer endpoint (001 §7's transfer, when storage has no presigned links):
 * the raw bytes, streamed to storage, never held whole. Authorised by the link's secret (only
 * its hash is kept; valid UPLOAD_LINK_TTL_S), held to the size limit (413 at once when the
 * declared length is over, else as soon as the excess arrives) and to the plan's storage
 * (403 with the upsell), and refused with 415 when the first bytes are none of the allowed
 * types. Nothing of a refused body is kept. At most LIMIT_UPLOADS_IN_FLIGHT at once per user.
 * Mounted outside the 1 MiB JSON body limit (app.ts).
 */
export const registerTransfer = (app: OpenAPIHono<AppEnv>, deps: AppDeps) => {
  const inFlight = userLimit(deps, 'uploads');
  app.put(`${TRANSFER_PREFIX}:id`, async (c) => {
    const u = uploadDepsOf(deps);
    if (!u) throw noStorage();
    const id = c.req.param('id');
    const signature = c.req.query('signature') ?? '';
    const row = /^[0-9a-f]{32}$/.test(id)
      ? await c.var.db
          .selectFrom('upload_files')
          .selectAll()
          .where('key', '=', `uploads/${id}`)
          .executeTakeFirst()
      : undefined;
    if (!row || !row.transfer_hash || row.transfer_hash !== secretHash(signature)) {
      throw new ApiError(403, 'forbidden', 'this upload link is not valid');
    }
    if (!row.transfer_expires || row.transfer_expires < iso(deps.now())) {
      throw new ApiError(403, 'forbidden', 'this upload link has expired; ask for a new one');
    }
    if (row.status !== 'UPLOADING' && row.status !== 'UPLOADED') {
      throw new ApiError(409, 'conflict', `${row.name} is already ${row.status}`);
    }
    // The uploader's slot (as the route's user) for the in-flight limit.
    const owner = await c.var.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', row.user_id)
      .executeTakeFirstOrThrow();
    c.set('auth', {
      user: {
        id: owner.id,
        email: owner.email,
        name: owner.name,
        organization_id: owner.organization_id,
        created_at: owner.created_at,
      },
      tokenHash: '',
      familyId: '',
      expiresAt: row.transfer_expires,
    });
    let answer: Response | undefined;
    await inFlight(c, async () => {
      const limitBytes = u.settings.fileSizeLimitMb * MB;
      const standing = await storageStanding(c.var.db, row.user_id, u.settings);
      const already = row.size === null ? 0 : Number(row.size);
      const room = standing.limit - (standing.used - already);
      const declared = Number(c.req.header('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > limitBytes) {
        throw new ApiError(
          413,
          'bad_request',
          `File ${row.name} size exceeds the limit of ${u.settings.fileSizeLimitMb} MB.`,
        );
      }
      if ((Number.isFinite(declared) && declared > room) || room <= 0) {
        throw await overStorage(c.var.db, row.user_id, u);
      }
      const body = c.req.raw.body;
      if (!body) throw new ApiError(400, 'bad_request', 'the request has no body: send the file');
      const input = Readable.fromWeb(body as unknown as NodeWebStream<Uint8Array>);
      const maxBytes = Math.min(limitBytes, room);
      let size: number;
      // The gate may fail before storage starts reading it (a short body): its error is
      // kept here, so nothing is thrown where no one listens.
      let refused: unknown = null;
      const gate = magicGate();
      gate.on('error', (err) => (refused ??= err));
      input.once('error', (err) => gate.destroy(err));
      try {
        ({ size } = await u.storage.put(row.key, input.pipe(gate), {
          contentType: row.mime_type,
          maxBytes,
        }));
        if (refused) {
          await u.storage.delete(row.key);
          throw refused;
        }
      } catch (caught) {
        const err = refused ?? caught;
        if (err instanceof TooLarge) {
          if (maxBytes < limitBytes) throw await overStorage(c.var.db, row.user_id, u);
          throw new ApiError(
            413,
            'bad_request',
            `File ${row.name} size exceeds the limit of ${u.settings.fileSizeLimitMb} MB.`,
          );
        }
        if (err instanceof WrongContent) {
          throw new ApiError(415, 'bad_request', `${row.name}: ${WRONG_CONTENT}`);
        }
        throw err;
      }
      await c.var.db
        .updateTable('upload_files')
        .set({ size, status: 'UPLOADED', updated_at: iso(deps.now()) })
        .where('key', '=', row.key)
        .execute();
      answer = c.json(UploadTransferResult.parse({ key: row.key, size }), 200);
      c.res = answer;
    });
    return answer ?? c.res;
  });
};
