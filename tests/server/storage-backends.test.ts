import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalStorage,
  createS3Storage,
  NotStored,
  readHead,
  readStorageSettings,
  TooLarge,
  type FileStorage,
} from '../../server/storage';
import { startS3rver } from './storage-s3rver';

/** One suite, both back ends: the local disk and S3 (s3rver, started here). */

const text = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/** A stream of `n` chunks of `size` bytes, made as read (never the whole body at once). */
const chunks = (n: number, size: number, byte = 0x61) => {
  let sent = 0;
  return new Readable({
    read() {
      if (sent++ < n) this.push(Buffer.alloc(size, byte));
      else this.push(null);
    },
  });
};

type Backend = { name: string; storage: FileStorage; close(): Promise<void>; dir?: string };

const backends: Record<string, () => Promise<Backend>> = {
  local: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-local-'));
    return {
      name: 'local',
      dir,
      storage: createLocalStorage(dir),
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    const s3 = await startS3rver();
    const storage = createS3Storage(s3.settings);
    return {
      name: 's3',
      storage,
      close: async () => {
        await storage.close();
        await s3.close();
      },
    };
  },
};

describe.each(Object.keys(backends))('storage on %s', (name) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends[name]();
  });
  afterAll(async () => backend.close());

  it('puts a stream, heads it, gets it back, deletes it', async () => {
    const { storage } = backend;
    const body = randomBytes(300_000);
    const put = await storage.put(
      'u/a1/report.pdf',
      Readable.from([body.subarray(0, 1000), body.subarray(1000)]),
      {
        contentType: 'application/pdf',
      },
    );
    expect(put.size).toBe(300_000);
    expect((await storage.head('u/a1/report.pdf'))?.size).toBe(300_000);
    expect((await text(await storage.get('u/a1/report.pdf'))).equals(body)).toBe(true);
    expect([...(await readHead(storage, 'u/a1/report.pdf', 5))]).toEqual([...body.subarray(0, 5)]);
    expect(
      (await text(await storage.get('u/a1/report.pdf', { start: 10, end: 19 }))).equals(
        body.subarray(10, 20),
      ),
    ).toBe(true);
    await storage.delete('u/a1/report.pdf');
    expect(await storage.head('u/a1/report.pdf')).toBeNull();
    await expect(storage.get('u/a1/report.pdf')).rejects.toBeInstanceOf(NotStored);
    // Deleting what is not there is no error.
    await storage.delete('u/a1/report.pdf');
  });

  it('streams a body larger than 5 MiB in parts', async () => {
    const { storage } = backend;
    const put = await storage.put('u/big/file.bin', chunks(96, 64 * 1024));
    expect(put.size).toBe(6 * 1024 * 1024);
    expect((await storage.head('u/big/file.bin'))?.size).toBe(6 * 1024 * 1024);
    let total = 0;
    for await (const chunk of (await storage.get('u/big/file.bin')) as AsyncIterable<Buffer>) {
      total += chunk.length;
    }
    expect(total).toBe(6 * 1024 * 1024);
  });

  it('refuses a body past maxBytes and keeps nothing of it', async () => {
    const { storage } = backend;
    await expect(
      storage.put('u/over/file.bin', chunks(10, 1024), { maxBytes: 5000 }),
    ).rejects.toBeInstanceOf(TooLarge);
    expect(await storage.head('u/over/file.bin')).toBeNull();
    if (backend.dir) expect(readdirSync(join(backend.dir, 'u', 'over'))).toEqual([]);
  });

  it('a replaced file is whole: the old bytes until the new put finishes', async () => {
    const { storage } = backend;
    await storage.put('u/r/f.txt', Readable.from([Buffer.from('old')]));
    await storage.put('u/r/f.txt', Readable.from([Buffer.from('new text')]));
    expect((await text(await storage.get('u/r/f.txt'))).toString()).toBe('new text');
  });

  it('refuses keys that could leave the store', async () => {
    const { storage } = backend;
    await expect(storage.put('../escape', Readable.from([Buffer.from('x')]))).rejects.toThrow(
      'bad storage key: ../escape',
    );
    await expect(storage.head('a//b')).rejects.toThrow('bad storage key: a//b');
  });

  it('presigns a PUT the client sends the bytes to (S3), none on the local disk', async () => {
    const { storage } = backend;
    const link = await storage.presignPut('u/p/direct.md', {
      contentType: 'text/markdown',
      expiresInS: 600,
    });
    if (name === 'local') {
      expect(link).toBeNull();
      return;
    }
    expect(link!.headers).toEqual({ 'content-type': 'text/markdown' });
    const res = await fetch(link!.url, {
      method: 'PUT',
      headers: link!.headers,
      body: '# Direct\n\nSent straight to storage.',
    });
    expect(res.status).toBe(200);
    expect((await text(await storage.get('u/p/direct.md'))).toString()).toBe(
      '# Direct\n\nSent straight to storage.',
    );
  });
});

describe('storage configuration', () => {
  it('is the local disk under DATA_DIR by default', () => {
    expect(readStorageSettings({}, '/srv/data')).toEqual({ kind: 'local', dir: '/srv/data/files' });
  });
  it('reads STORAGE_URL', () => {
    expect(
      readStorageSettings(
        {
          STORAGE_URL:
            's3://KEY:SECRET@files/tenant?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true',
        },
        '/d',
      ),
    ).toEqual({
      kind: 's3',
      bucket: 'files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      accessKeyId: 'KEY',
      secretAccessKey: 'SECRET',
      prefix: 'tenant/',
    });
  });
  it('reads S3_BUCKET with the AWS variables', () => {
    expect(
      readStorageSettings(
        { S3_BUCKET: 'b', AWS_REGION: 'ap-south-1', AWS_ENDPOINT_URL_S3: 'https://r2.example.com' },
        '/d',
      ),
    ).toEqual({
      kind: 's3',
      bucket: 'b',
      endpoint: 'https://r2.example.com',
      region: 'ap-south-1',
      forcePathStyle: false,
    });
  });
  it('names the variable at fault', () => {
    expect(() => readStorageSettings({ STORAGE_URL: 'ftp://x' }, '/d')).toThrow(
      'STORAGE_URL must be s3://bucket?... or file:///dir, got "ftp://x"',
    );
    expect(() => readStorageSettings({ STORAGE_URL: 's3://b?colour=red' }, '/d')).toThrow(
      'STORAGE_URL: unknown parameter "colour"',
    );
  });
});
