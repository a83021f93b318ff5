import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';

/** The repository's public/ folder, which the build copies into dist/ as it is. */
const PUBLIC = join(import.meta.dirname, '..', '..', 'public');
const INDEX_HTML = join(import.meta.dirname, '..', '..', 'index.html');

describe('the favicon (issue 18)', () => {
  let server: RunningServer;
  let dataDir: string;
  let distDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'favicon-data-'));
    distDir = mkdtempSync(join(tmpdir(), 'favicon-dist-'));
    writeFileSync(join(distDir, 'index.html'), readFileSync(INDEX_HTML));
    for (const file of ['favicon.ico', 'favicon.svg']) {
      copyFileSync(join(PUBLIC, file), join(distDir, file));
    }
    server = await startServer({ port: 0, dataDir, distDir, log: () => {} });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  });

  it('/favicon.ico answers an icon, not the app page', async () => {
    const res = await fetch(`${server.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await res.arrayBuffer());
    // An ICO file: reserved 0, type 1 (icon).
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it('/favicon.svg answers an SVG, and the app page links both', async () => {
    const res = await fetch(`${server.url}/favicon.svg`);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toContain('<svg');
    const html = readFileSync(INDEX_HTML, 'utf8');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    expect(html).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32" />');
  });
});
