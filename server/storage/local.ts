import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, NotStored, TooLarge, type FileStorage } from './storage';

/** Counts bytes through; fails with TooLarge past `maxBytes`. */
export const byteCounter = (maxBytes: number | undefined) => {
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) done(new TooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  return { stream, size: () => size };
};

/**
 * Files on the local disk under `dir` (DATA_DIR/files by default). A put writes
 * `<file>.partial-<random>` and renames it into place once the body is whole, so a reader
 * never sees half a file and a failed put leaves nothing behind.
 */
export const createLocalStorage = (dir: string): FileStorage => {
  const pathOf = (key: string) => join(dir, checkKey(key));
  return {
    kind: 'local',
    bucket: 'local',
    async put(key, body, opts = {}) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.partial-${randomBytes(6).toString('hex')}`;
      const counter = byteCounter(opts.maxBytes);
      try {
        await pipeline(body, counter.stream, createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, path);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
      return { size: counter.size() };
    },
    async get(key, range) {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch {
        throw new NotStored(key);
      }
      return createReadStream(path, range ? { start: range.start, end: range.end } : {});
    },
    async head(key) {
      const path = pathOf(key);
      try {
        const s = await stat(path);
        return { size: s.size, contentType: null };
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async presignPut() {
      return null;
    },
    async close() {},
  };
};
