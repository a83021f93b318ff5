import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as passwords from '../../server/auth/password';
import { hashPassword, verifyPassword } from '../../server/auth/password';
import { createHarness, resetTokenFrom, STORAGES, type Harness } from './harness';

// The password functions are wrapped so that a test can hold a request inside its password
// check (as a slow scrypt would) and see what the rest of the server does meanwhile.
vi.mock('../../server/auth/password', async (importOriginal) => {
  const actual = await importOriginal<typeof passwords>();
  return {
    ...actual,
    hashPassword: vi.fn(actual.hashPassword),
    verifyPassword: vi.fn(actual.verifyPassword),
  };
});
const actual = await vi.importActual<typeof passwords>('../../server/auth/password');

const gates: Array<{ open(): void }> = [];

/** Holds every call of a password function until `open()`; `entered` counts the callers. */
const holdCalls = <A extends unknown[], R>(
  fn: { mockImplementation(impl: (...args: A) => Promise<R>): unknown },
  real: (...args: A) => Promise<R>,
) => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const gate = { entered: 0, open };
  gates.push(gate);
  fn.mockImplementation(async (...args: A) => {
    gate.entered++;
    await opened;
    return real(...args);
  });
  return gate;
};

const waitFor = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 1000 && !ok(); i++) await sleep(5);
  if (!ok()) throw new Error(`gave up waiting for ${what}`);
};

/** Settles with the promise's value, or with 'still waiting' if it takes seconds. */
const orStuck = <T>(p: Promise<T>) =>
  Promise.race([p, sleep(3000).then(() => 'still waiting' as const)]);

const IN_PROGRESS = {
  error: 'conflict',
  message: 'a request with this idempotency key is still in progress; retry',
};

describe.each(STORAGES)('concurrent requests on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    // Long enough for a first sign-up (scrypt, then its transaction) on a busy machine, which
    // the racing requests wait for; short enough that the "in progress" answers stay quick.
    h = await createHarness(storage, { idempotencyWaitMs: 3_000 });
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    // A failed test must not leave requests held (they would hold up the next tests).
    for (const gate of gates.splice(0)) gate.open();
    vi.mocked(verifyPassword).mockImplementation(actual.verifyPassword);
    vi.mocked(hashPassword).mockImplementation(actual.hashPassword);
    vi.mocked(hashPassword).mockClear();
  });

  describe('with one idempotency key', () => {
    it.each([2, 5])(
      'gives %i racing refreshes the first answer, and its tokens work',
      async (n) => {
        const { session } = await h.signUp();
        const key = randomUUID();
        const answers = await Promise.all(
          Array.from({ length: n }, () =>
            h.call('POST', '/auth/refresh', {
              key,
              body: { refresh_token: session.refresh_token },
            }),
          ),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
        for (const a of answers) expect(a.body).toEqual(answers[0].body);
        expect(answers.filter((a) => a.headers.get('idempotent-replay') === 'true')).toHaveLength(
          n - 1,
        );
        const { id_token, refresh_token } = answers[0].body;
        const poll = await h.call('GET', '/auth/session', { token: id_token });
        expect(poll.status).toBe(200);
        const next = await h.call('POST', '/auth/refresh', { body: { refresh_token } });
        expect(next.status).toBe(200);
      },
    );

    it.each([2, 5])('gives %i racing sign-ups the first answer and one account', async (n) => {
      const key = randomUUID();
      const body = {
        name: 'Racer',
        email: `racer-${randomUUID()}@example.com`,
        password: 'long-enough',
      };
      const answers = await Promise.all(
        Array.from({ length: n }, () => h.call('POST', '/auth/signup', { key, body })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(n).fill(201));
      for (const a of answers) expect(a.body).toEqual(answers[0].body);
      const users = await h.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', body.email)
        .execute();
      expect(users).toHaveLength(1);
      const poll = await h.call('GET', '/auth/session', { token: answers[0].body.id_token });
      expect(poll.status).toBe(200);
    });

    it('answers 409 "in progress" when the first does not finish in time, then replays', async () => {
      const { email, password } = await h.signUp();
      const key = randomUUID();
      const signIn = () => h.call('POST', '/auth/signin', { key, body: { email, password } });
      const gate = holdCalls(vi.mocked(verifyPassword), actual.verifyPassword);
      const first = signIn();
      await waitFor('the first sign-in to check the password', () => gate.entered === 1);

      // It waits out the whole wait for the held first one: a short wait for this request only.
      h.waits.idempotencyMs = 200;
      const impatient = await signIn().finally(() => (h.waits.idempotencyMs = 3_000));
      expect(impatient.status).toBe(409);
      expect(impatient.body).toEqual(IN_PROGRESS);
      const otherBody = await h.call('POST', '/auth/signin', {
        key,
        body: { email, password: 'another-password' },
      });
      expect(otherBody.status).toBe(409);
      expect(otherBody.body.message).toBe(
        'idempotency-key was already used for a different request body',
      );

      gate.open();
      const done = await first;
      expect(done.status).toBe(200);
      const again = await signIn();
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replay')).toBe('true');
      expect(again.body).toEqual(done.body);
    });

    it('takes over a claim left pending for over a minute; the late first run is void', async () => {
      const { email, password } = await h.signUp();
      const key = randomUUID();
      const signIn = () => h.call('POST', '/auth/signin', { key, body: { email, password } });
      const gate = holdCalls(vi.mocked(verifyPassword), actual.verifyPassword);
      const first = signIn();
      await waitFor('the first sign-in to check the password', () => gate.entered === 1);

      // As if its server had died: a minute on, a retry runs instead of waiting.
      h.clock.now += 61_000;
      vi.mocked(verifyPassword).mockImplementation(actual.verifyPassword);
      const retry = await signIn();
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replay')).toBeNull();

      gate.open();
      const late = await first;
      expect(late.status).toBe(409);
      expect(late.body).toEqual(IN_PROGRESS);
      const again = await signIn();
      expect(again.headers.get('idempotent-replay')).toBe('true');
      expect(again.body).toEqual(retry.body);
      const { user } = retry.body;
      const families = await h.db
        .selectFrom('id_tokens')
        .select('family_id')
        .where('user_id', '=', user.id)
        .execute();
      // The sign-up's and the retry's: the late run's tokens were rolled back.
      expect(families).toHaveLength(2);
    });
  });

  describe('password hashing holds no database connection', () => {
    it('answers the session poll while keyed sign-ins check their passwords', async () => {
      const { email, password } = await h.signUp();
      const demo = await h.signInDemo();
      const gate = holdCalls(vi.mocked(verifyPassword), actual.verifyPassword);
      // As many as a new browser may have checked at once (auth-lockout.test.ts: strangers to an
      // account get five checks before any delay; more wait for those to settle).
      const signIns = Array.from({ length: 5 }, () =>
        h.call('POST', '/auth/signin', { key: randomUUID(), body: { email, password } }),
      );
      await waitFor('a sign-in to check its password', () => gate.entered >= 1);

      const poll = await orStuck(h.call('GET', '/auth/session', { token: demo.id_token }));
      expect(poll).not.toBe('still waiting');
      expect(poll).toMatchObject({ status: 200 });
      // All of them check at once: none waits for another's transaction.
      await waitFor('every sign-in to check its password', () => gate.entered === 5);

      gate.open();
      expect((await Promise.all(signIns)).map((s) => s.status)).toEqual(Array(5).fill(200));
    });

    it('answers the session poll while a keyed sign-up hashes its password', async () => {
      const demo = await h.signInDemo();
      const gate = holdCalls(vi.mocked(hashPassword), actual.hashPassword);
      const signUp = h.call('POST', '/auth/signup', {
        key: randomUUID(),
        body: { name: 'Slow', email: `slow-${randomUUID()}@example.com`, password: 'long-enough' },
      });
      await waitFor('the sign-up to hash its password', () => gate.entered === 1);

      const poll = await orStuck(h.call('GET', '/auth/session', { token: demo.id_token }));
      expect(poll).toMatchObject({ status: 200 });

      gate.open();
      expect((await signUp).status).toBe(201);
    });

    it('checks a reset token before hashing the new password', async () => {
      const garbage = await h.call('POST', '/auth/reset-password', {
        key: randomUUID(),
        body: { token: 'x'.repeat(43), password: 'a-new-password' },
      });
      expect(garbage.status).toBe(400);
      expect(garbage.body.message).toBe('reset token is invalid or has already been used');
      expect(hashPassword).not.toHaveBeenCalled();

      const { email } = await h.signUp();
      await h.call('POST', '/auth/forgot-password', { body: { email } });
      const token = resetTokenFrom(h.mail.sent.at(-1)!.text);
      h.clock.now += 3601_000;
      vi.mocked(hashPassword).mockClear();
      const expired = await h.call('POST', '/auth/reset-password', {
        body: { token, password: 'a-new-password' },
      });
      expect(expired.body.message).toBe('reset token has expired; request a new one');
      expect(hashPassword).not.toHaveBeenCalled();
    });

    it('answers the session poll while a keyed reset hashes the new password', async () => {
      const { email } = await h.signUp();
      await h.call('POST', '/auth/forgot-password', { body: { email } });
      const token = resetTokenFrom(h.mail.sent.at(-1)!.text);
      const demo = await h.signInDemo();
      const gate = holdCalls(vi.mocked(hashPassword), actual.hashPassword);
      const reset = h.call('POST', '/auth/reset-password', {
        key: randomUUID(),
        body: { token, password: 'a-new-password' },
      });
      await waitFor('the reset to hash the password', () => gate.entered === 1);

      const poll = await orStuck(h.call('GET', '/auth/session', { token: demo.id_token }));
      expect(poll).toMatchObject({ status: 200 });

      gate.open();
      expect((await reset).status).toBe(200);
      expect(
        (await h.call('POST', '/auth/signin', { body: { email, password: 'a-new-password' } }))
          .status,
      ).toBe(200);
    });
  });
});
