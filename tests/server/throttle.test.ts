import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashSubject, record } from '../../server/auth/throttle';
import type { Db } from '../../server/db/schema';
import {
  createHarness,
  resetTokenFrom,
  STORAGE_INDEPENDENT,
  STORAGES,
  type Harness,
  type Storage,
} from './harness';

const SECOND = 1000;
const MINUTE = 60_000;
const refusal = (wait: string) => ({
  error: 'rate_limited',
  message: `too many failed sign-in attempts; try again in ${wait}`,
});

/**
 * The throttling suite's harness (client addresses from x-forwarded-for) and its tests: the
 * rules (delays, windows, what counts as a failure) are the server's, one back end; how
 * attempts sent at once are counted is the storage's (a lock per dialect), every back end.
 */
const throttlingTests = (storage: Storage, part: 'rules' | 'at once') => {
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
  /** Failed sign-ins by strangers at `email`, written down as if they had happened now. */
  const strangersFailed = (email: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        record(h.db, [{ kind: 'signin_email', subject: hashSubject(email) }], h.clock.now),
      ),
    );

  if (part === 'rules') {
    // Before device cookies, 10 failures from one address locked the e-mail there for 15
    // minutes, and 100 from anywhere locked it everywhere: now strangers are slowed, never locked.
    it('slows strangers at an e-mail with delays that double after 5 failures, the right password too', async () => {
      const { email, password } = await h.signUp();
      const other = await h.signUp();
      await failTimes(email, 5);

      const sixth = await signIn(email, 'wrong-password-again');
      expect(sixth.status).toBe(429);
      expect(sixth.body).toEqual(refusal('1 second'));
      expect(sixth.headers.get('retry-after')).toBe('1');
      // From anywhere, and with the right password: only a device cookie is trusted.
      const right = await signIn(email.toUpperCase(), password, B);
      expect(right.status).toBe(429);
      expect(right.body).toEqual(refusal('1 second'));
      // Only that e-mail is held back.
      expect((await signIn(other.email, other.password)).status).toBe(200);

      h.clock.now += SECOND;
      await failTimes(email, 1, B);
      const seventh = await signIn(email, password);
      expect(seventh.body).toEqual(refusal('2 seconds'));
      expect(seventh.headers.get('retry-after')).toBe('2');
      h.clock.now += 2 * SECOND;
      await failTimes(email, 1);
      expect((await signIn(email, password)).headers.get('retry-after')).toBe('4');
      h.clock.now += 4 * SECOND;
      expect((await signIn(email, password)).status).toBe(200);
    });

    it('lets strangers wait at most 15 minutes between guesses, and never locks the e-mail', async () => {
      const { email, password } = await h.signUp();
      await strangersFailed(email, 30);
      const refused = await signIn(email, password);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(refusal('15 minutes'));
      expect(refused.headers.get('retry-after')).toBe('900');
      h.clock.now += 15 * MINUTE;
      expect((await signIn(email, password)).status).toBe(200);
    });

    it("lets the owner past strangers' delays through a password reset", async () => {
      const { email } = await h.signUp();
      await strangersFailed(email, 100);
      expect((await signIn(email, 'correct-horse')).status).toBe(429);

      // The reset link clears the strangers' failures at the e-mail.
      await h.call('POST', '/auth/forgot-password', { body: { email } });
      const token = resetTokenFrom(h.mail.sent.at(-1)!.text);
      const reset = await h.call('POST', '/auth/reset-password', {
        body: { token, password: 'a-new-password' },
      });
      expect(reset.status).toBe(200);
      expect((await signIn(email, 'a-new-password')).status).toBe(200);
      expect((await signIn(email, 'a-new-password', '192.0.2.99')).status).toBe(200);
    });

    // The worker sends a key with every mutation: a failed sign-in's transaction rolls back, the
    // count of failures must not. Unknown e-mails are counted alike, so 429 tells nobody apart.
    it('counts failures sent with idempotency keys and for unknown e-mails', async () => {
      const email = `nobody-${Math.random().toString(36).slice(2)}@example.com`;
      for (let i = 0; i < 5; i++) {
        expect((await signIn(email, 'some-password', A, `guess-${email}-${i}`)).status).toBe(401);
      }
      const refused = await signIn(email, 'some-password', A, `guess-${email}-5`);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(refusal('1 second'));
    });

    it('does not count a malformed sign-in as a failure', async () => {
      const { email, password } = await h.signUp();
      await failTimes(email, 4);
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
      expect(rows.length).toBeGreaterThanOrEqual(6);
      expect(JSON.stringify(rows)).not.toContain(email);
      expect(JSON.stringify(rows)).not.toContain(A);

      // Strangers' failures at an e-mail are kept a day, the rest 15 minutes or an hour.
      h.clock.now += 61 * MINUTE;
      await h.maintain();
      const left = await h.db.selectFrom('auth_attempts').select('kind').execute();
      expect(new Set(left.map((r) => r.kind))).toEqual(new Set(['signin_email']));
      h.clock.now += 24 * 60 * MINUTE;
      await h.maintain();
      expect(await h.db.selectFrom('auth_attempts').selectAll().execute()).toEqual([]);
    });
  }

  if (part === 'at once') {
    it('lets 20 correct sign-ins sent at once all in', async () => {
      const { email, password } = await h.signUp();
      const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(email, password)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      // None of them counted as a failure: 5 wrong ones still go straight to the check.
      await failTimes(email, 5);
      expect((await signIn(email, password)).status).toBe(429);
    });

    it('lets exactly 5 guesses sent at once reach the password check', async () => {
      const { email, password } = await h.signUp();
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) => signIn(email, `parallel-guess-${i}`)),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(20).fill(429)]);
      h.clock.now += SECOND;
      expect((await signIn(email, password)).status).toBe(200);
    });
  }
};

describe.each(STORAGE_INDEPENDENT)('sign-in and reset throttling on %s', (storage) =>
  throttlingTests(storage, 'rules'),
);

describe.each(STORAGES)('sign-ins sent at once on %s', (storage) =>
  throttlingTests(storage, 'at once'),
);

// A sign-in blocked behind 5 password checks at its e-mail, still running, waits for them: as long as they
// keep settling (a loaded server is slow, not stuck), and for signInWaitMs (here 300 ms) of
// nothing settling before it is refused.
describe.each(STORAGES)('a sign-in waiting for the checks ahead of it on %s', (storage) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(storage, { trustProxy: true, signInWaitMs: 300 });
  });
  afterAll(async () => {
    await h?.close();
  });

  const A = '203.0.113.7';
  const signIn = (email: string, password: string) =>
    h.call('POST', '/auth/signin', {
      body: { email, password },
      headers: { 'x-forwarded-for': A },
    });
  /** Checks of other strangers' requests at the same e-mail, still running. */
  const checksRunning = (email: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        record(h.db, [{ kind: 'signin_email', subject: hashSubject(email) }], h.clock.now, true),
      ),
    );
  const stillRunning = (db: Db, email: string) =>
    db
      .selectFrom('auth_attempts')
      .select('id')
      .where('subject', '=', hashSubject(email))
      .where('pending', '=', 1)
      .execute();

  it('is refused once nothing ahead of it has settled for signInWaitMs', async () => {
    const { email, password } = await h.signUp();
    await checksRunning(email, 5);
    const answer = await signIn(email, password);
    expect(answer.status).toBe(429);
    expect(answer.body.error).toBe('rate_limited');
  });

  it('keeps waiting past signInWaitMs while the checks ahead keep settling', async () => {
    const { email, password } = await h.signUp();
    await checksRunning(email, 5);
    const answer = signIn(email, password);
    // Eight times, 100 ms apart (800 ms in all): one check settles and another request's
    // check takes its place in the same step, so the waiting sign-in never finds room.
    for (let i = 0; i < 8; i++) {
      await sleep(100);
      await h.db.transaction().execute(async (trx) => {
        const [first] = await stillRunning(trx, email);
        await trx.deleteFrom('auth_attempts').where('id', '=', first.id).execute();
        await record(
          trx,
          [{ kind: 'signin_email', subject: hashSubject(email) }],
          h.clock.now,
          true,
        );
      });
    }
    await h.db
      .deleteFrom('auth_attempts')
      .where('subject', '=', hashSubject(email))
      .where('pending', '=', 1)
      .execute();
    expect((await answer).status).toBe(200);
  });
});
