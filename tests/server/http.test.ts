import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endpointPath, endpoints, type EndpointName } from '../../contract/endpoints';
import { startServer, type RunningServer } from '../../server/start';
import { resetTokenFrom } from './harness';

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe('the server over HTTP', () => {
  let server: RunningServer;
  let dataDir: string;
  let distDir: string;
  const logs: string[] = [];

  beforeAll(async () => {
    dataDir = tempDir('server-data-');
    distDir = tempDir('server-dist-');
    mkdirSync(join(distDir, 'assets'));
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(distDir, 'assets', 'index-AbCd1234.js'), 'console.log(1)');
    writeFileSync(join(distDir, 'favicon.svg'), '<svg/>');
    server = await startServer({ port: 0, dataDir, distDir, log: (l) => logs.push(l) });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  });

  it('serves the app with client-side routes falling back to index.html', async () => {
    for (const path of ['/', '/feeds/home', '/auth/signin?x=1', '/ask-needl/full']) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('sends security headers: own scripts and workers only, no framing, no sniffing', async () => {
    const res = await fetch(`${server.url}/feeds/home`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const api = await fetch(`${server.url}/api/health`);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('caches hashed assets for long and 404s a missing one', async () => {
    const asset = await fetch(`${server.url}/assets/index-AbCd1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(`${server.url}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    const missing = await fetch(`${server.url}/assets/gone-XyZ98765.js`);
    expect(missing.status).toBe(404);
  });

  it('does not serve files outside the build', async () => {
    const res = await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`);
    expect(await res.text()).toContain('<div id="root">');
  });

  it('documents every contract endpoint in /api/openapi.json', async () => {
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    expect(doc.info.title).toBe('needl workspace API');
    const paths = Object.keys(doc.paths);
    for (const name of Object.keys(endpoints) as EndpointName[]) {
      const path = `/api${endpointPath(name, 'needl')}`;
      expect(paths).toContain(path);
      expect(doc.paths[path]).toHaveProperty(endpoints[name].method);
    }
  });

  it('counts requests, auth polls and connections', async () => {
    const signIn = await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@needl.ai', password: 'demo-password' }),
    });
    const { id_token } = await signIn.json();
    const polls = server.metrics.authPolls;
    const requests = server.metrics.requests;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/auth/session`, { headers: { token: id_token } });
      expect(res.status).toBe(200);
    }
    expect(server.metrics.authPolls).toBe(polls + 3);
    expect(server.metrics.requests).toBe(requests + 3);
    expect(server.metrics.connectionsOpened).toBeGreaterThanOrEqual(1);
    expect(server.metrics.openConnections).toBeGreaterThanOrEqual(0);
  });

  it('links the reset mail to the server itself by default', async () => {
    await fetch(`${server.url}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'analyst@needl.ai' }),
    });
    const mail = server.mail.sent.at(-1)!;
    expect(mail.to).toBe('analyst@needl.ai');
    expect(mail.text).toContain(`http://localhost:${server.port}/auth/reset-password?token=`);
    expect(resetTokenFrom(mail.text).length).toBeGreaterThanOrEqual(43);
    // The line comes once the mail is saved under DATA_DIR/mail (see mail-file.test.ts).
    await vi.waitFor(() =>
      expect(logs.some((l) => l.startsWith('mail to analyst@needl.ai: '))).toBe(true),
    );
  });

  it('seeds only on the first start', async () => {
    expect(logs).toContain('seeded the demo workspace');
    await server.close();
    const again: string[] = [];
    server = await startServer({ port: 0, dataDir, distDir, log: (l) => again.push(l) });
    expect(again).not.toContain('seeded the demo workspace');
    const res = await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@needl.ai', password: 'demo-password' }),
    });
    const page = await fetch(`${server.url}/api/notifications?page=2`, {
      headers: { token: (await res.json()).id_token },
    });
    expect((await page.json()).total).toBe(25);
  });
});

describe('startServer options', () => {
  it('says the app is not built when there is no index.html', async () => {
    const dataDir = tempDir('server-data-');
    const server = await startServer({
      port: 0,
      dataDir,
      distDir: join(dataDir, 'nothing'),
      log: () => {},
    });
    try {
      const res = await fetch(`${server.url}/feeds/home`);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe('app not built: run npm run build');
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('runs on PGlite with another product name', async () => {
    const server = await startServer({ port: 0, pglite: true, product: 'acme', log: () => {} });
    try {
      const health = await (await fetch(`${server.url}/api/health`)).json();
      expect(health).toEqual({ status: 'ok', product: 'acme', database: 'postgres' });
      const signIn = await fetch(`${server.url}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@needl.ai', password: 'demo-password' }),
      });
      const token = (await signIn.json()).id_token;
      const flags = await (
        await fetch(`${server.url}/api/feature/config`, { headers: { token } })
      ).json();
      expect(flags.results.ask_acme_copilot).toBe('on');
      expect(flags.results.acme_report).toBe('on');
      const report = await fetch(`${server.url}/api/acme-analytics/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: JSON.stringify({
          adblocker_installed: true,
          mp_info: { event_name: 'session', distinct_id: 'd', email: 'e', name: 'n' },
        }),
      });
      expect(report.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('npm start entry (server/main.ts)', () => {
  it('prints the URL and the demo sign-in, serves, and exits cleanly on SIGTERM', async () => {
    const dataDir = tempDir('server-main-');
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DIST_DIR: join(dataDir, 'dist') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Demo sign-in')) resolve();
        });
        child.once('exit', () => reject(new Error(`main exited early:\n${out}`)));
      });
      const url = out.match(/Needl workspace on (http:\/\/localhost:\d+)/)?.[1];
      expect(url).toBeTruthy();
      expect(out).toContain('Demo sign-in: demo@needl.ai / demo-password');
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
