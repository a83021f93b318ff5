import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickClientAddress } from '../../server/auth/throttle';
import { startServer, type RunningServer } from '../../server/start';
import { createHarness, resetTokenFrom, STORAGES, type Harness } from './harness';

const MINUTE = 60_000;
const refusal = (minutes: number) => ({
  error: 'rate_limited',
  message: `too many failed sign-in attempts; try again in ${minutes} minutes`,
});

describe.each(STORAGES)('per-address throttling behind a trusted proxy on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { trustProxy: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses an address after 50 failures across e-mails, whatever the e-mail', async () => {
    const { email, password } = await h.signUp();
    // The proxy appends the address it saw; what comes before is the client's say-so.
    const from = (address: string) => ({ 'x-forwarded-for': `10.9.8.7, ${address}` });
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.call('POST', '/auth/signin', {
          body: { email: `victim-${i}@example.com`, password: 'guess-password' },
          headers: from('203.0.113.7'),
        }),
      ),
    );
    expect(guesses.map((g) => g.status)).toEqual(Array(50).fill(401));

    const refused = await h.call('POST', '/auth/signin', {
      body: { email, password },
      headers: from('203.0.113.7'),
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(refusal(15));
    const elsewhere = await h.call('POST', '/auth/signin', {
      body: { email, password },
      headers: from('198.51.100.2'),
    });
    expect(elsewhere.status).toBe(200);
  });
});

describe.each(STORAGES)('sign-up and password reset per address on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { trustProxy: true });
  });
  afterAll(async () => {
    await h?.close();
  });
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('refuses a 21st sign-up from one address within 15 minutes', async () => {
    const signUp = (address: string) =>
      h.call('POST', '/auth/signup', {
        key: randomUUID(),
        body: { name: 'Many', email: `many-${randomUUID()}@example.com`, password: 'long-enough' },
        headers: from(address),
      });
    for (let i = 0; i < 20; i++) expect((await signUp('203.0.113.9')).status).toBe(201);
    const refused = await signUp('203.0.113.9');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rate_limited',
      message: 'too many sign-up attempts; try again in 15 minutes',
    });
    expect(refused.headers.get('retry-after')).toBe('900');
    expect((await signUp('198.51.100.9')).status).toBe(201);
    h.clock.now += 15 * MINUTE;
    expect((await signUp('203.0.113.9')).status).toBe(201);
  });

  it('refuses a 21st password reset from one address within 15 minutes', async () => {
    const { email } = await h.signUp();
    await h.call('POST', '/auth/forgot-password', { body: { email } });
    const token = resetTokenFrom(h.mail.sent.at(-1)!.text);
    const reset = (address: string, resetToken: string) =>
      h.call('POST', '/auth/reset-password', {
        body: { token: resetToken, password: 'a-new-password' },
        headers: from(address),
      });
    for (let i = 0; i < 20; i++) {
      expect((await reset('203.0.113.10', `guess-${i}`.padEnd(43, 'x'))).status).toBe(400);
    }
    const refused = await reset('203.0.113.10', token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rate_limited',
      message: 'too many password reset attempts; try again in 15 minutes',
    });
    expect(refused.headers.get('retry-after')).toBe('900');
    expect((await reset('198.51.100.10', token)).status).toBe(200);
  });
});

describe('the client address', () => {
  it('is the socket peer unless a proxy is trusted, then the last forwarded one', () => {
    expect(pickClientAddress('1.2.3.4', '::ffff:127.0.0.1', false)).toBe('127.0.0.1');
    expect(pickClientAddress('1.2.3.4, 5.6.7.8', '10.0.0.1', true)).toBe('5.6.7.8');
    expect(pickClientAddress(undefined, '::1', true)).toBe('::1');
    expect(pickClientAddress(undefined, undefined, false)).toBeNull();
  });
});

describe('per-address throttling over HTTP', () => {
  let server: RunningServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'server-throttle-'));
    const now = Date.parse('2025-03-03T10:00:00.000Z');
    server = await startServer({ port: 0, dataDir, now: () => now, log: () => {} });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const signIn = (email: string, password: string) =>
    fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      // Without TRUST_PROXY the header is the client's say-so and changes nothing.
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${email.length}` },
      body: JSON.stringify({ email, password }),
    });

  it('counts failures by the socket address and ignores x-forwarded-for', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signIn(`victim-${i}@example.com`, 'guess-password')),
    );
    expect(guesses.map((g) => g.status)).toEqual(Array(50).fill(401));
    const refused = await signIn('demo@needl.ai', 'demo-password');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('900');
  });
});
