import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

export type ScryptParams = { readonly N: number; readonly r: number; readonly p: number };

/** Node's defaults (N=2^14, r=8, p=1): about 50 ms a hash, well inside scrypt's memory cap. */
export const PASSWORD_PARAMS: ScryptParams = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 64;

/**
 * `scrypt$N$r$p$salt$hash` with a fresh 16-byte salt per password. The factors travel with the
 * hash, so `verifyPassword` checks any of them (the server suites hash at a lower one).
 */
export const hashPassword = async (
  password: string,
  params: ScryptParams = PASSWORD_PARAMS,
): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params);
  const { N, r, p } = params;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(
    password.normalize('NFKC'),
    Buffer.from(salt, 'base64url'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    },
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
};

/**
 * A hash of a random password, checked against when the e-mail is unknown so that a wrong
 * e-mail takes as long as a wrong password (no account enumeration by timing).
 */
let decoy: Promise<string> | null = null;
export const decoyHash = (): Promise<string> =>
  (decoy ??= hashPassword(randomBytes(16).toString('hex')));
