import type { Readable } from 'node:stream';

/**
 * Files behind one interface (issue 20 item 1): the local disk under DATA_DIR (default) or
 * S3-compatible object storage (AWS S3, MinIO, R2) when configured. Every byte is streamed:
 * `put` takes a stream and `get` answers one; nothing holds a whole file in memory.
 * Keys are paths of `[A-Za-z0-9._-]` segments joined by `/` (`checkKey`).
 */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** The bucket name the upload calls carry in `metadata_fields.bucket` ('local' on disk). */
  readonly bucket: string;
  /**
   * Stores `body` under `key` (replacing what was there once the whole body has arrived; a
   * failed or refused put leaves no file). With `maxBytes`, a body longer than that is refused
   * with `TooLarge` as soon as the excess arrives.
   */
  put(
    key: string,
    body: Readable,
    opts?: { contentType?: string; maxBytes?: number; size?: number },
  ): Promise<{ size: number }>;
  /** The file as a stream; `NotStored` when there is none. `range`: bytes [start, end]. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Its size and type, or null when there is none. */
  head(key: string): Promise<{ size: number; contentType: string | null } | null>;
  /** Removes it; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /**
   * A link the client PUTs the file's bytes to directly, with these headers, valid for
   * `expiresInS`; null when this back end has none (the local disk: the server's own
   * transfer endpoint takes the bytes).
   */
  presignPut(
    key: string,
    opts: { contentType: string; size?: number; expiresInS: number },
  ): Promise<{ url: string; headers: Record<string, string> } | null>;
  /** Closes connections (S3). */
  close(): Promise<void>;
}

export class TooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

export class NotStored extends Error {
  constructor(readonly key: string) {
    super(`no stored file ${key}`);
  }
}

const SEGMENT = /^[A-Za-z0-9._-]{1,200}$/;

/** Throws unless `key` is 1 to 512 characters of safe segments (no empty, `.` or `..`). */
export const checkKey = (key: string): string => {
  if (key.length === 0 || key.length > 512) throw new Error(`bad storage key: ${key}`);
  for (const part of key.split('/')) {
    if (!SEGMENT.test(part) || part === '.' || part === '..') {
      throw new Error(`bad storage key: ${key}`);
    }
  }
  return key;
};

/** The first `n` bytes of a stored file (fewer when it is shorter). */
export const readHead = async (storage: FileStorage, key: string, n: number) => {
  const head = await storage.head(key);
  if (!head) throw new NotStored(key);
  if (head.size === 0) return new Uint8Array(0);
  const stream = await storage.get(key, { start: 0, end: Math.min(n, head.size) - 1 });
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    got += chunk.length;
    if (got >= n) break;
  }
  stream.destroy();
  return new Uint8Array(Buffer.concat(chunks).subarray(0, n));
};
