import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import { pickClientAddress } from '../../server/auth/throttle';
import { createHarness, resetTokenFrom, STORAGES, type Harness } from './harness';

const MINUTE = 60_000;
const refusal = (minutes: number) => ({
  error: 'rate_limited',
  message: `too many failed sign-in attempts; try again in ${minutes} minutes`,
});

describe.each(STORAGES)('sign-in and reset throttling on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    // Client addresses come from x-forwarded-for, so a test can sign in from several places.
    h = await createHarness(storage, { trustProxy: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  const A = '203.0.113.1';
  const B = '198.51.100.1';
  const signIn = (email: string, password: string, from = A, key?: string) =>
    h.call('POST', '/auth/signin', {
      body: { email, password },
      key,
      headers: { 'x-forwarded-for': from },
    });
  const failTimes = async (email: string, n: number, from = A) => {
    for (let i = 0; i < n; i++) {
      expect((await signIn(email, `wrong-password-${i}`, from)).status).toBe(401);
    }
  };

  it('refuses an e-mail from one address after 10 failures in 15 minutes, the right password too', async () => {
    const { email, password } = await h.signUp();
    const other = await h.signUp();
    await failTimes(email, 10);

    const eleventh = await signIn(email, 'wrong-password-again');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual(refusal(15));
    expect(eleventh.headers.get('retry-after')).toBe('900');
    const right = await signIn(email.toUpperCase(), password);
    expect(right.status).toBe(429);
    expect(right.body).toEqual(refusal(15));
    // Only that e-mail is held back.
    expect((await signIn(other.email, other.password)).status).toBe(200);

    h.clock.now += 5 * MINUTE;
    const later = await signIn(email, password);
    expect(later.status).toBe(429);
    expect(later.body).toEqual(refusal(10));
    expect(later.headers.get('retry-after')).toBe('600');

    h.clock.now += 10 * MINUTE;
    expect((await signIn(email, password)).status).toBe(200);
  });

  it('lets the owner sign in from their own address while another one is held back', async () => {
    const { email, password } = await h.signUp();
    await failTimes(email, 10, A);
    expect((await signIn(email, password, A)).status).toBe(429);
    expect((await signIn(email, password, B)).status).toBe(200);
  });

  it('lets 20 correct sign-ins sent at once all in', async () => {
    const { email, password } = await h.signUp();
    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(email, password)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    // None of them counted as a failure: 10 wrong ones still fit before the limit.
    await failTimes(email, 10);
    expect((await signIn(email, password)).status).toBe(429);
  });

  it('lets exactly 10 guesses sent at once reach the password check', async () => {
    const { email, password } = await h.signUp();
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => signIn(email, `parallel-guess-${i}`)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(15).fill(429)]);
    h.clock.now += 15 * MINUTE;
    expect((await signIn(email, password)).status).toBe(200);
  });

  it('holds an e-mail back everywhere after 100 failures from many addresses', async () => {
    const { email, password } = await h.signUp();
    const addresses = Array.from({ length: 10 }, (_, i) => `192.0.2.${i + 10}`);
    await Promise.all(addresses.map((from) => failTimes(email, 10, from)));
    const elsewhere = await signIn(email, password, '192.0.2.99');
    expect(elsewhere.status).toBe(429);
    expect(elsewhere.body).toEqual(refusal(15));

    // The owner's way out is the reset link: it clears the failures from every address.
    await h.call('POST', '/auth/forgot-password', { body: { email } });
    const token = resetTokenFrom(h.mail.sent.at(-1)!.text);
    const reset = await h.call('POST', '/auth/reset-password', {
      body: { token, password: 'a-new-password' },
    });
    expect(reset.status).toBe(200);
    expect((await signIn(email, 'a-new-password', addresses[0])).status).toBe(200);
    expect((await signIn(email, 'a-new-password', '192.0.2.99')).status).toBe(200);
  });

  it('lets the owner of a held-back e-mail in again through a password reset', async () => {
    const { email } = await h.signUp();
    await failTimes(email, 10);
    await h.call('POST', '/auth/forgot-password', { body: { email } });
    const token = resetTokenFrom(h.mail.sent.at(-1)!.text);
    const reset = await h.call('POST', '/auth/reset-password', {
      body: { token, password: 'a-new-password' },
    });
    expect(reset.status).toBe(200);
    expect((await signIn(email, 'a-new-password')).status).toBe(200);
  });

  it("clears an address's failures at an e-mail on a successful sign-in from it", async () => {
    const { email, password } = await h.signUp();
    await failTimes(email, 9);
    expect((await signIn(email, password)).status).toBe(200);
    await failTimes(email, 10);
    expect((await signIn(email, password)).status).toBe(429);
  });

  // The worker sends a key with every mutation: a failed sign-in's transaction rolls back, the
  // count of failures must not. Unknown e-mails are counted alike, so 429 tells nobody apart.
  it('counts failures sent with idempotency keys and for unknown e-mails', async () => {
    const email = `nobody-${Math.random().toString(36).slice(2)}@example.com`;
    for (let i = 0; i < 10; i++) {
      expect((await signIn(email, 'some-password', A, `guess-${email}-${i}`)).status).toBe(401);
    }
    const refused = await signIn(email, 'some-password', A, `guess-${email}-10`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(refusal(15));
  });

  it('does not count a malformed sign-in as a failure', async () => {
    const { email, password } = await h.signUp();
    await failTimes(email, 9);
    for (let i = 0; i < 3; i++) {
      const bad = await h.call('POST', '/auth/signin', {
        body: { email, password: '' },
        headers: { 'x-forwarded-for': A },
      });
      expect(bad.status).toBe(400);
    }
    expect((await signIn(email, password)).status).toBe(200);
  });

  it('sends at most 5 reset mails an hour per e-mail, answering the same after', async () => {
    const { email } = await h.signUp();
    const forgot = (address: string) =>
      h.call('POST', '/auth/forgot-password', { body: { email: address } });
    const first = await forgot(email);
    for (let i = 0; i < 4; i++) expect((await forgot(email)).status).toBe(200);
    const toThem = () => h.mail.sent.filter((m) => m.to === email).length;
    expect(toThem()).toBe(5);

    const sixth = await forgot(email.toUpperCase());
    expect(sixth.status).toBe(200);
    expect(sixth.body).toEqual(first.body);
    expect(toThem()).toBe(5);
    expect(h.logs.at(-1)).toBe(
      `password reset mail to ${email} not sent: 5 already sent within the hour`,
    );

    h.clock.now += 60 * MINUTE;
    expect((await forgot(email)).status).toBe(200);
    expect(toThem()).toBe(6);
  });

  it('stores no e-mail or address in the clear and purges attempts past their window', async () => {
    const email = `purged-${Math.random().toString(36).slice(2)}@example.com`;
    await failTimes(email, 3);
    const rows = await h.db.selectFrom('auth_attempts').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(9);
    expect(JSON.stringify(rows)).not.toContain(email);
    expect(JSON.stringify(rows)).not.toContain(A);

    h.clock.now += 61 * MINUTE;
    await h.maintain();
    expect(await h.db.selectFrom('auth_attempts').selectAll().execute()).toEqual([]);
  });
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
