import { vi } from 'vitest';
import type * as passwords from '../../server/auth/password';

/**
 * The server suites sign up and sign in thousands of times, and each password hash at the
 * product's work factor (scrypt N=2^14, about 50 ms of a core) adds up to minutes on 2 cores.
 * Here new passwords are hashed at N=2^10 through the product's own code: verifyPassword reads
 * the factor from the stored hash, so checking them is as cheap, and every other step (salt,
 * format, comparison) is the product's. Hashes made at the product's factor (the demo accounts
 * of a template made outside the suites) still verify. A suite that mocks the module itself
 * (concurrency.test.ts) gets the product's functions from importOriginal.
 */
vi.mock('../../server/auth/password', async (importOriginal) => {
  const actual = await importOriginal<typeof passwords>();
  const hashPassword = (password: string) => actual.hashPassword(password, { N: 1024, r: 8, p: 1 });
  return { ...actual, hashPassword };
});
