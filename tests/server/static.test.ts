import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncodings } from '../../server/static';
import { startServer, type RunningServer } from '../../server/start';
import viteConfig from '../../vite.config';

const INDEX = `<!doctype html><html><head><title>Needl</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const SCRIPT = `export const rows = [${Array.from({ length: 500 }, (_, i) => `{id:${i},title:"Filing ${i}"}`).join(',')}];`;
const STYLE = `.row{display:flex;gap:4px}\n`.repeat(200);

/** A GET that hands back the bytes as sent (fetch would undo the content coding). */
const rawGet = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });

describe('the built app: precompressed, cached by kind', () => {
  let server: RunningServer;
  let dataDir: string;
  let distDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'server-static-data-'));
    distDir = mkdtempSync(join(tmpdir(), 'server-static-dist-'));
    mkdirSync(join(distDir, 'assets'));
    writeFileSync(join(distDir, 'index.html'), INDEX);
    writeFileSync(join(distDir, 'assets', 'index-AbCd1234.js'), SCRIPT);
    writeFileSync(join(distDir, 'assets', 'index-EfGh5678.css'), STYLE);
    writeFileSync(join(distDir, 'favicon.svg'), '<svg/>');
    writeFileSync(join(distDir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/compress-dist.ts', distDir],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(0);
    server = await startServer({ port: 0, dataDir, distDir, log: () => {} });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  });

  it('writes brotli and gzip copies of text assets, but none for tiny or binary files', () => {
    for (const [file, text] of [
      ['index.html', INDEX],
      ['assets/index-AbCd1234.js', SCRIPT],
      ['assets/index-EfGh5678.css', STYLE],
    ]) {
      expect(brotliDecompressSync(readFileSync(join(distDir, `${file}.br`))).toString()).toBe(text);
      expect(gunzipSync(readFileSync(join(distDir, `${file}.gz`))).toString()).toBe(text);
    }
    expect(existsSync(join(distDir, 'favicon.svg.br'))).toBe(false);
    expect(existsSync(join(distDir, 'logo.png.br'))).toBe(false);
  });

  it('sends brotli to who takes it, gzip to who takes only gzip, the file to the rest', async () => {
    const url = `${server.url}/assets/index-AbCd1234.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);

    const plain = await rawGet(url, { 'accept-encoding': 'br;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe(SCRIPT);

    const page = await rawGet(`${server.url}/feeds/home`, { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toBe(INDEX);
  });

  it('caches hashed assets for a year and makes index.html revalidate', async () => {
    for (const path of ['/assets/index-AbCd1234.js', '/assets/index-EfGh5678.css']) {
      const res = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'br' });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    for (const path of ['/', '/index.html', '/notifications']) {
      const res = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const icon = await rawGet(`${server.url}/favicon.svg`, { 'accept-encoding': 'br' });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers a malformed URL with the app (status 400), never plain text', async () => {
    const res = await rawGet(`${server.url}/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body.toString()).toBe(INDEX);
    // A percent sign that is encoded properly is just part of a route.
    const encoded = await rawGet(`${server.url}/feeds/100%25`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.toString()).toBe(INDEX);
  });

  it('marks every /api answer no-store, errors too', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const answers = [
      await fetch(`${server.url}/api/health`),
      await post('/auth/signin', { email: 'demo@needl.ai', password: 'demo-password' }),
      await post('/auth/signin', { email: 'demo@needl.ai', password: 'wrong-password' }),
      await post('/auth/signin', { email: 'not-an-email' }),
      await fetch(`${server.url}/api/notifications`),
      await fetch(`${server.url}/api/no/such/thing`),
      await fetch(`${server.url}/api/openapi.json`),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 400, 401, 404, 200]);
    expect(answers.map((a) => a.headers.get('cache-control'))).toEqual(Array(7).fill('no-store'));
  });
});

describe('Accept-Encoding', () => {
  it('takes the names with q above 0, and through * the ones not refused', () => {
    expect([...acceptedEncodings('gzip, deflate, br')]).toEqual(['gzip', 'deflate', 'br']);
    expect([...acceptedEncodings('br;q=0, gzip;q=0.5')]).toEqual(['gzip']);
    expect([...acceptedEncodings('*')].sort()).toEqual(['*', 'br', 'gzip']);
    expect([...acceptedEncodings('*, br;q=0')].sort()).toEqual(['*', 'gzip']);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
  });
});

describe('the build', () => {
  it('ships no source maps unless SOURCEMAP=1 asks for them', () => {
    expect(process.env.SOURCEMAP).toBeUndefined();
    expect(viteConfig.build?.sourcemap).toBe(false);
  });
});
