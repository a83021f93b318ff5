import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppContext, AppDeps } from '../context';
import type { Db } from '../db/schema';
import { hashSubject } from './throttle';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
 * that has signed in to an account gets a cookie naming that account (its e-mail's hash) and a
 * random nonce, signed with a server secret. A sign-in that brings a valid one is judged by
 * that cookie's own failures alone, so strangers guessing at the account (who have no such
 * cookie and cannot make one) never hold its owner back.
 *
 * One cookie per account, named `<product>_device_<16 hex>` (a keyed hash of the e-mail, so a
 * browser used for several accounts keeps one for each and the name says nothing about whose
 * it is). Its value is `<nonce>.<issued, seconds>.<HMAC-SHA256>`. HttpOnly, SameSite=Lax,
 * Secure over https, sent only to the sign-in path; it lasts 180 days and the server refuses an
 * older one whatever the browser keeps. The secret lives in the database's `meta` table, made
 * on first use, so every API server sharing the database accepts the others' cookies.
 */

const SECRET_KEY = 'auth:device-cookie-secret';
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;

const loadSecret = async (db: Db): Promise<Buffer> => {
  await db
    .insertInto('meta')
    .values({ key: SECRET_KEY, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('meta')
    .select('value')
    .where('key', '=', SECRET_KEY)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
};

const NONCE = /^[A-Za-z0-9_-]{22}$/;
const ISSUED = /^\d{1,12}$/;

export type DeviceCookies = {
  /** The nonce of the request's device cookie for `email`, when it is valid; else null. */
  read(c: AppContext, email: string): Promise<string | null>;
  /** Puts a new device cookie for `email` on the answer. */
  issue(c: AppContext, email: string): Promise<void>;
};

export const createDeviceCookies = (
  deps: Pick<AppDeps, 'db' | 'now' | 'product' | 'trustProxy'>,
): DeviceCookies => {
  let secret: Promise<Buffer> | null = null;
  const key = () =>
    (secret ??= loadSecret(deps.db).catch((err: unknown) => {
      secret = null;
      throw err;
    }));
  const mac = (k: Buffer, text: string) => createHmac('sha256', k).update(text).digest();
  const nameFor = (k: Buffer, email: string) =>
    `${deps.product}_device_${mac(k, `name|${hashSubject(email)}`)
      .toString('hex')
      .slice(0, 16)}`;
  const signature = (k: Buffer, email: string, nonce: string, issued: string) =>
    mac(k, `device|${hashSubject(email)}|${nonce}|${issued}`);

  /** https as the client sees it: the request's own scheme, or a trusted proxy's say-so. */
  const secure = (c: AppContext) => {
    if (new URL(c.req.url).protocol === 'https:') return true;
    if (!deps.trustProxy) return false;
    const proto = c.req.header('x-forwarded-proto')?.split(',').at(-1)?.trim().toLowerCase();
    return proto === 'https';
  };

  return {
    async read(c, email) {
      const k = await key();
      const value = getCookie(c, nameFor(k, email));
      const [nonce, issued, sig, ...rest] = value?.split('.') ?? [];
      if (rest.length || !nonce || !NONCE.test(nonce) || !issued || !ISSUED.test(issued) || !sig) {
        return null;
      }
      const expected = signature(k, email, nonce, issued);
      const given = Buffer.from(sig, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if ((Number(issued) + DEVICE_COOKIE_MAX_AGE_S) * 1000 <= deps.now()) return null;
      return nonce;
    },
    async issue(c, email) {
      const k = await key();
      const nonce = randomBytes(16).toString('base64url');
      const issued = String(Math.floor(deps.now() / 1000));
      const sig = signature(k, email, nonce, issued).toString('base64url');
      setCookie(c, nameFor(k, email), `${nonce}.${issued}.${sig}`, {
        path: c.req.path,
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
        httpOnly: true,
        sameSite: 'Lax',
        secure: secure(c),
      });
    },
  };
};
