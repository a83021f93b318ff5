import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../server/auth/throttle';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

/**
 * Sign-in cannot be turned against the account's owner (issue 17, item 2; OWASP's device
 * cookies). Before: 100 wrong passwords for the owner's e-mail from 10 addresses gave the owner
 * 429 for 15 minutes from everywhere, their own browser and the right password included.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** `name=value` of the device cookie an answer sets, and its attributes. */
const deviceCookieOf = (headers: Headers) => {
  const set = headers.getSetCookie().find((c) => /^needl_device_[0-9a-f]{16}=/.test(c));
  if (!set) throw new Error(`no device cookie in ${JSON.stringify(headers.getSetCookie())}`);
  const [pair, ...attributes] = set.split(/;\s*/);
  return { cookie: pair, attributes };
};

// Storage-independent: the device-cookie rules; the attempt rows they count are stored and
// counted on every back end in throttle.test.ts and address-throttle.test.ts.
describe.each(STORAGE_INDEPENDENT)('device cookies on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    // Client addresses come from x-forwarded-for (TRUST_PROXY=1).
    h = await createHarness(storage, { trustProxy: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  const signIn = (email: string, password: string, from: string, cookie?: string) =>
    h.call('POST', '/auth/signin', {
      body: { email, password },
      headers: { 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
    });
  /** The owner signs in once from their browser and keeps the device cookie it got. */
  const ownersBrowser = async (email: string, password: string, from = '198.51.100.50') => {
    const first = await signIn(email, password, from);
    expect(first.status).toBe(200);
    return deviceCookieOf(first.headers).cookie;
  };
  const statusCounts = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

  it('sets a signed, HttpOnly, SameSite=Lax cookie for the sign-in path only', async () => {
    const { email, password } = await h.signUp();
    const answer = await signIn(email, password, '198.51.100.51');
    const { cookie, attributes } = deviceCookieOf(answer.headers);
    expect(cookie).toMatch(/^needl_device_[0-9a-f]{16}=[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual([
      'Max-Age=15552000',
      'Path=/api/auth/signin',
      'HttpOnly',
      'SameSite=Lax',
    ]);
    // Behind a proxy that says the client came over https, it is Secure too.
    const https = await h.call('POST', '/auth/signin', {
      body: { email, password },
      headers: { 'x-forwarded-for': '198.51.100.51', 'x-forwarded-proto': 'https' },
    });
    expect(deviceCookieOf(https.headers).attributes).toContain('Secure');
    // Nothing in it names the account.
    expect(cookie).not.toContain(email.split('@')[0]);
  });

  it("lets the owner's browser in at once after 100 wrong passwords from 10 addresses", async () => {
    const { email, password } = await h.signUp();
    const owner = await ownersBrowser(email, password);
    const addresses = Array.from({ length: 10 }, (_, i) => `192.0.2.${i + 10}`);
    const guesses = await Promise.all(
      addresses.map(async (from) => {
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++) {
          statuses.push((await signIn(email, `wrong-password-${from}-${i}`, from)).status);
        }
        return statuses;
      }),
    );
    // 5 reached the password check; the other 95 were held back.
    expect(statusCounts(guesses.flat())).toEqual({ 401: 5, 429: 95 });

    // The owner's browser, from one of the attackers' addresses and from its own.
    const fromAttackers = await signIn(email, password, addresses[0], owner);
    expect(fromAttackers.status).toBe(200);
    expect(fromAttackers.body.user.email).toBe(email);
    expect((await signIn(email, password, '198.51.100.50', owner)).status).toBe(200);

    // The attackers' next guess is still held back, the right password without the cookie too.
    const next = await signIn(email, 'wrong-password-next', addresses[3]);
    expect(next.status).toBe(429);
    expect(next.body).toEqual({
      error: 'rate_limited',
      message: 'too many failed sign-in attempts; try again in 1 second',
    });
    expect(next.headers.get('retry-after')).toBe('1');
    expect((await signIn(email, password, '203.0.113.200')).status).toBe(429);
  });

  it('keeps one host rotating x-forwarded-for throttled, and the owner signing in', async () => {
    const { email, password } = await h.signUp();
    const owner = await ownersBrowser(email, password);
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const from = `10.${Math.floor(i / 250)}.${i % 250}.${(i * 7) % 250}`;
      statuses.push((await signIn(email, `rotating-guess-${i}`, from)).status);
    }
    expect(statusCounts(statuses)).toEqual({ 401: 5, 429: 95 });
    expect((await signIn(email, password, '10.99.99.99', owner)).status).toBe(200);
  });

  it('lets strangers who guess whenever allowed reach the password check 109 times a day', async () => {
    const { email, password } = await h.signUp();
    const owner = await ownersBrowser(email, password);
    const start = h.clock.now;
    let checked = 0;
    let refused = 0;
    let i = 0;
    while (h.clock.now < start + DAY) {
      const answer = await signIn(email, `patient-guess-${i++}`, `10.1.${i % 250}.1`);
      if (answer.status === 401) {
        checked += 1;
        continue;
      }
      expect(answer.status).toBe(429);
      refused += 1;
      // An attacker who waits exactly as long as told: 1 s, 2 s, 4 s ... then 15 minutes.
      const wait = Number(answer.headers.get('retry-after'));
      expect(wait).toBeLessThanOrEqual(900);
      h.clock.now += wait * SECOND;
      // The owner signs in whenever they like.
      if (refused % 20 === 0)
        expect((await signIn(email, password, '10.2.0.1', owner)).status).toBe(200);
    }
    // 5 at once, 10 more within 1,023 s, then one every 15 minutes until the day is out.
    expect(checked).toBe(109);
  });

  it('locks a device cookie after 10 wrong passwords, not the account', async () => {
    const { email, password } = await h.signUp();
    const laptop = await ownersBrowser(email, password, '198.51.100.60');
    const phone = await ownersBrowser(email, password, '198.51.100.61');
    for (let i = 0; i < 10; i++) {
      expect((await signIn(email, `typo-${i}`, '198.51.100.60', laptop)).status).toBe(401);
    }
    const locked = await signIn(email, password, '198.51.100.60', laptop);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('too many failed sign-in attempts; try again in 15 minutes');
    expect(locked.headers.get('retry-after')).toBe('900');
    // The phone's cookie, and strangers (none of whose guesses those were), are unaffected.
    expect((await signIn(email, password, '198.51.100.60', phone)).status).toBe(200);
    expect((await signIn(email, password, '198.51.100.62')).status).toBe(200);
    h.clock.now += 15 * MINUTE;
    expect((await signIn(email, password, '198.51.100.60', laptop)).status).toBe(200);
  });

  it('trusts no cookie that the server did not sign for that account', async () => {
    const victim = await h.signUp();
    const attacker = await h.signUp();
    const owner = await ownersBrowser(victim.email, victim.password);
    const own = await ownersBrowser(attacker.email, attacker.password);
    const [name, value] = owner.split('=');
    const [nonce, issued, sig] = value.split('.');
    const tampered = [
      // another nonce under the owner's signature
      `${name}=${'A'.repeat(22)}.${issued}.${sig}`,
      // issued later than signed
      `${name}=${nonce}.${Number(issued) + 1}.${sig}`,
      // the attacker's own account's cookie, sent as it is and under the victim's name
      own,
      `${name}=${own.split('=')[1]}`,
    ];
    for (let i = 0; i < 5; i++) {
      expect((await signIn(victim.email, `wrong-${i}`, '203.0.113.80')).status).toBe(401);
    }
    for (const cookie of tampered) {
      const answer = await signIn(victim.email, 'another-guess', '203.0.113.81', cookie);
      expect(answer.status).toBe(429);
    }
    expect((await signIn(victim.email, victim.password, '203.0.113.82', owner)).status).toBe(200);
  });

  it('refuses a cookie older than 180 days', async () => {
    const { email, password } = await h.signUp();
    const old = await ownersBrowser(email, password);
    for (let i = 0; i < 5; i++) {
      expect((await signIn(email, `wrong-${i}`, '203.0.113.90')).status).toBe(401);
    }
    h.clock.now += 180 * DAY;
    // The strangers' failures are a day old: the old cookie counts among strangers again.
    for (let i = 0; i < 5; i++) {
      expect((await signIn(email, `wrong-again-${i}`, '203.0.113.90')).status).toBe(401);
    }
    expect((await signIn(email, password, '203.0.113.91', old)).status).toBe(429);
  });

  it('counts an IPv6 client by its /64', async () => {
    const { email, password } = await h.signUp();
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        signIn(`nobody-${i}@example.com`, 'guess-password', `2001:db8:5:6:${i.toString(16)}::1`),
      ),
    );
    expect(statusCounts(guesses.map((g) => g.status))).toEqual({ 401: 50 });
    const sameNetwork = await signIn(email, password, '2001:db8:5:6:ffff:ffff:ffff:ffff');
    expect(sameNetwork.status).toBe(429);
    expect(sameNetwork.headers.get('retry-after')).toBe('900');
    expect((await signIn(email, password, '2001:db8:5:7::1')).status).toBe(200);
  });
});

describe('the address a limit counts', () => {
  it('is an IPv4 address itself and an IPv6 address its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:5:6:a:b:c:d')).toBe('2001:db8:5:6::/64');
    expect(addressKey('2001:DB8:5:6::1')).toBe('2001:db8:5:6::/64');
    expect(addressKey('not an address')).toBe('not an address');
  });
});
