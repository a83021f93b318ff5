import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConnectedAddress, isPublicAddress } from '../../server/ingest/address';
import { fetchUrl, type FetchOptions } from '../../server/ingest/fetch';
import { fixture, rssOf, startFixtureServer, type FixtureServer } from './ingest-fixture-server';

/** The one outbound fetch: addresses, limits, redirects, conditional GET, charsets. */

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

const local: FetchOptions = { allowPrivate: true };

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (err: Error) => err.message,
  );

describe('addresses', () => {
  it.each([
    [
      'http://127.0.0.1:9/feed',
      'the address 127.0.0.1 is on a private or local network, which is not allowed',
    ],
    [
      'http://[::1]:9/feed',
      'the address ::1 is on a private or local network, which is not allowed',
    ],
    [
      'http://10.0.0.7/feed',
      'the address 10.0.0.7 is on a private or local network, which is not allowed',
    ],
    [
      'http://169.254.169.254/latest/meta-data/',
      'the address 169.254.169.254 is on a private or local network, which is not allowed',
    ],
  ])('refuses %s without FETCH_ALLOW_PRIVATE', async (url, message) => {
    expect(await failure(fetchUrl(url))).toBe(message);
  });

  it('refuses a host name that resolves to loopback, before connecting', async () => {
    const before = server.requests.length;
    const message = await failure(fetchUrl(`http://localhost:${new URL(server.base).port}/x`));
    expect(message).toMatch(
      /^localhost is on a private or local network \((127\.0\.0\.1|::1)\), which is not allowed$/,
    );
    expect(server.requests.length).toBe(before);
  });

  it('knows public from private addresses', () => {
    expect(['8.8.8.8', '2001:4860:4860::8888', '151.101.1.69'].map(isPublicAddress)).toEqual([
      true,
      true,
      true,
    ]);
    expect(
      [
        '127.0.0.1',
        '10.1.2.3',
        '172.16.0.1',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '::1',
        'fe80::1',
        'fc00::1',
        '::ffff:127.0.0.1',
        '64:ff9b::a00:1',
        '224.0.0.1',
      ].map(isPublicAddress),
    ).toEqual(Array(13).fill(false));
  });

  // IPv6 forms that carry an IPv4 address are judged by the address they carry (ipaddr.js
  // ranges, the embedded address decoded).
  it.each([
    // IPv4-compatible (::/96, deprecated): ipaddr.js calls it unicast.
    ['::7f00:1', false],
    ['::a00:1', false],
    ['::808:808', true],
    // IPv4-mapped and IPv4-translated.
    ['::ffff:127.0.0.1', false],
    ['::ffff:a9fe:a9fe', false],
    ['::ffff:8.8.8.8', true],
    ['::ffff:0:7f00:1', false],
    ['::ffff:0:808:808', true],
    // NAT64, well-known and local-use prefixes.
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::808:808', true],
    ['64:ff9b:1::a00:1', false],
    // 6to4: 2002:AABB:CCDD:: carries AA.BB.CC.DD.
    ['2002:7f00:1::1', false],
    ['2002:c0a8:101::1', false],
    ['2002:808:808::1', true],
    // Teredo: the server (bits 32-63) and the client (the last 32 bits, inverted).
    ['2001:0:7f00:1:0:ffff:f7f7:f7f7', false],
    ['2001:0:808:808:0:ffff:80ff:fffe', false],
    ['2001:0:808:808:0:ffff:f7f7:f7f7', true],
    // And plain IPv6: loopback, unspecified, documentation, unique-local, public.
    ['::1', false],
    ['::', false],
    ['2001:db8::1', false],
    ['fd00::1', false],
    ['2606:4700:4700::1111', true],
  ])('judges %s by what it carries (public: %s)', (address, isPublic) => {
    expect(isPublicAddress(address)).toBe(isPublic);
    const check = () => checkConnectedAddress(address, address);
    if (isPublic) expect(check).not.toThrow();
    else expect(check).toThrow(/is on a private or local network/);
  });

  it.each([
    ['http://[::127.0.0.1]/', 'the address ::7f00:1 (127.0.0.1) is on a private or local network'],
    ['http://[::ffff:127.0.0.1]:9/', 'the address ::ffff:7f00:1 (127.0.0.1) is on a private'],
    ['http://[64:ff9b::169.254.169.254]/', 'the address 64:ff9b::a9fe:a9fe (169.254.169.254)'],
    ['http://[2002:a00:1::1]/', 'the address 2002:a00:1::1 (10.0.0.1) is on a private'],
    ['http://[2001:0:a00:1::1]/', 'the address 2001:0:a00:1::1 (10.0.0.1) is on a private'],
  ])('refuses %s before connecting', async (url, message) => {
    expect(await failure(fetchUrl(url))).toContain(message);
  });

  it('refuses the address a socket connected to unless it is public', () => {
    expect(() => checkConnectedAddress('feeds.example.com', '::ffff:10.1.2.3')).toThrow(
      'feeds.example.com is on a private or local network (::ffff:10.1.2.3 (10.1.2.3)), which is not allowed',
    );
    expect(() => checkConnectedAddress('feeds.example.com', undefined)).toThrow(
      'feeds.example.com is on a private or local network (an unknown address), which is not allowed',
    );
    expect(() => checkConnectedAddress('feeds.example.com', '151.101.1.69')).not.toThrow();
  });

  it.skipIf(!hasOpenssl)('reads https through the checked socket, TLS checks intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ].concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    const tlsServer = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.end('<rss/>'),
    );
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const { port } = tlsServer.address() as { port: number };
    try {
      // The handshake ran on the socket made and checked by the fetch: its certificate is read.
      expect(await failure(fetchUrl(`https://127.0.0.1:${port}/`, local))).toBe(
        'the server could not be reached: its certificate is self-signed',
      );
      expect(await failure(fetchUrl(`https://127.0.0.1:${port}/`))).toBe(
        'the address 127.0.0.1 is on a private or local network, which is not allowed',
      );
    } finally {
      tlsServer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['ftp://example.com/feed.xml', 'only http and https addresses can be read, not ftp'],
    ['file:///etc/passwd', 'only http and https addresses can be read, not file'],
    ['not a url', 'the address is not a valid URL'],
  ])('refuses %s', async (url, message) => {
    expect(await failure(fetchUrl(url, local))).toBe(message);
  });
});

describe('limits', () => {
  it('stops reading a 20 MB feed at 10 MB, with a clear error', async () => {
    let sent = 0;
    server.set('/huge.xml', {
      handle: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (sent < 20 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      },
    });
    expect(await failure(fetchUrl(server.url('/huge.xml'), local))).toBe(
      'the feed is larger than 10 MB',
    );
    // The reader stopped at the limit and hung up: the server never got the whole 20 MB out,
    // so what the fetch held stayed near 10 MB whatever the feed's size.
    expect(sent).toBeLessThan(20 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the limit without reading it', async () => {
    server.set('/declared.xml', {
      handle: (_req, res) => {
        res.writeHead(200, { 'content-length': String(20 * 1024 * 1024) });
        res.write('<rss>');
      },
    });
    expect(await failure(fetchUrl(server.url('/declared.xml'), local))).toBe(
      'the feed is larger than 10 MB',
    );
  });

  it('gives up on a source that does not answer in time', async () => {
    server.set('/silent.xml', { handle: () => {} });
    expect(await failure(fetchUrl(server.url('/silent.xml'), { ...local, timeoutMs: 500 }))).toBe(
      'timed out after 0.5 s',
    );
  });

  it('gives up on a body that trickles past the time limit', async () => {
    server.set('/trickle.xml', {
      handle: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
      },
    });
    expect(await failure(fetchUrl(server.url('/trickle.xml'), { ...local, timeoutMs: 1000 }))).toBe(
      'timed out after 1 s',
    );
  });

  it('reports a body cut off by the time limit as timed out, not as a short body', async () => {
    // Half a feed, then silence: what arrived must not be read as the whole answer.
    server.set('/half.xml', {
      handle: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        res.write(rssOf(40).slice(0, 3000));
      },
    });
    expect(await failure(fetchUrl(server.url('/half.xml'), { ...local, timeoutMs: 300 }))).toBe(
      'timed out after 0.3 s',
    );
    // A body that runs until the connection closes (no length, not chunked): when the time
    // limit closes it, what arrived looks complete to the HTTP parser.
    const raw = createServer((socket) => {
      socket.on('error', () => {});
      socket.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/rss+xml\r\nconnection: close\r\n\r\n' +
          rssOf(40).slice(0, 3000),
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const rawUrl = `http://127.0.0.1:${(raw.address() as { port: number }).port}/feed.xml`;
    try {
      expect(await failure(fetchUrl(rawUrl, { ...local, timeoutMs: 300 }))).toBe(
        'timed out after 0.3 s',
      );
    } finally {
      raw.close();
    }
    const gzipped = gzipSync(rssOf(400));
    server.set('/half.xml.gz', {
      handle: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip' });
        res.write(gzipped.subarray(0, gzipped.length >> 1));
      },
    });
    expect(await failure(fetchUrl(server.url('/half.xml.gz'), { ...local, timeoutMs: 300 }))).toBe(
      'timed out after 0.3 s',
    );
  });

  it('says when nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    expect(await failure(fetchUrl(`http://127.0.0.1:${port}/feed`, local))).toBe(
      'the server could not be reached: connection refused',
    );
  });

  it('reports the status of an error answer', async () => {
    expect(await failure(fetchUrl(server.url('/nowhere.xml'), local))).toBe(
      'the server answered 404 Not Found',
    );
    server.set('/broken.xml', { status: 503, body: 'down' });
    expect(await failure(fetchUrl(server.url('/broken.xml'), local))).toBe(
      'the server answered 503 Service Unavailable',
    );
  });
});

describe('redirects', () => {
  it('follows a 301 then 302 chain to the feed', async () => {
    server.set('/old', { status: 301, headers: { location: '/moved' } });
    server.set('/moved', { status: 302, headers: { location: server.url('/final.xml') } });
    server.set('/final.xml', { body: rssOf(1) });
    const res = await fetchUrl(server.url('/old'), local);
    expect(res.status).toBe('ok');
    if (res.status === 'ok') {
      expect(res.url).toBe(server.url('/final.xml'));
      expect(res.text).toContain('Story 1');
    }
  });

  it('refuses a loop', async () => {
    server.set('/loop-a', { status: 302, headers: { location: '/loop-b' } });
    server.set('/loop-b', { status: 302, headers: { location: '/loop-a' } });
    expect(await failure(fetchUrl(server.url('/loop-a'), local))).toBe(
      'the address redirects in a loop',
    );
  });

  it('refuses more than 5 redirects', async () => {
    for (let i = 0; i < 7; i++) {
      server.set(`/hop-${i}`, { status: 307, headers: { location: `/hop-${i + 1}` } });
    }
    server.set('/hop-7', { body: rssOf(1) });
    expect(await failure(fetchUrl(server.url('/hop-0'), local))).toBe(
      'the address redirects more than 5 times',
    );
  });
});

describe('conditional GET', () => {
  it('sends the ETag back and reads a 304 as nothing new', async () => {
    server.set('/etag.xml', { body: rssOf(2), etag: '"v1"' });
    const first = await fetchUrl(server.url('/etag.xml'), local);
    expect(first.status === 'ok' && first.etag).toBe('"v1"');
    const second = await fetchUrl(server.url('/etag.xml'), { ...local, etag: '"v1"' });
    expect(second.status).toBe('not_modified');
  });

  it('sends Last-Modified back and reads a 304 as nothing new', async () => {
    const stamp = 'Mon, 03 Mar 2025 09:00:00 GMT';
    server.set('/lm.xml', { body: rssOf(2), lastModified: stamp });
    const first = await fetchUrl(server.url('/lm.xml'), local);
    expect(first.status === 'ok' && first.lastModified).toBe(stamp);
    const second = await fetchUrl(server.url('/lm.xml'), { ...local, lastModified: stamp });
    expect(second.status).toBe('not_modified');
  });

  it('names the product in its user agent', async () => {
    server.set('/ua.xml', { body: rssOf(1) });
    await fetchUrl(server.url('/ua.xml'), local);
    expect(server.requests.at(-1)!.headers['user-agent']).toMatch(/^NeedlWorkspace\/1\.0/);
  });
});

describe('bodies', () => {
  it('decodes by the Content-Type charset', async () => {
    server.set('/cp.xml', {
      body: fixture('feeds/windows-1252.xml'),
      headers: { 'content-type': 'application/rss+xml; charset=windows-1252' },
    });
    const res = await fetchUrl(server.url('/cp.xml'), local);
    expect(res.status === 'ok' && res.text).toContain('“Strong euro” costs exporters €2bn');
  });

  it('decodes by the XML declaration when the header names no charset', async () => {
    server.set('/latin.xml', {
      body: fixture('feeds/iso-8859-1.xml'),
      headers: { 'content-type': 'text/xml' },
    });
    const res = await fetchUrl(server.url('/latin.xml'), local);
    expect(res.status === 'ok' && res.text).toContain('Größte Kursgewinne seit März');
  });

  it('decompresses gzip', async () => {
    server.set('/gz.xml', {
      body: gzipSync(rssOf(3)),
      headers: { 'content-encoding': 'gzip' },
    });
    const res = await fetchUrl(server.url('/gz.xml'), local);
    expect(res.status === 'ok' && res.text).toContain('Story 3');
  });
});
