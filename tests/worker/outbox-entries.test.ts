import { describe, expect, it } from 'vitest';
import { ApiError } from '../../worker/api-errors';
import { backedOff, isRejection, type StoredEntry } from '../../worker/outbox-entries';

/** The outbox's rules for a 429 (issue 17): not a rejection, and its Retry-After, bounded. */
const entry: StoredEntry = {
  id: 'e-1',
  key: 'k-1',
  op: 'preferences.update',
  input: { nav_state: 'peek' },
  attempts: 1,
  created_at: 0,
  last_error: null,
  user_id: 'u-1',
  variant: 'main',
  undo: [],
  order_key: 'preferences',
  next_attempt: 0,
  backoff_ms: 0,
  offline: false,
};
const refusal = (retryAfterMs?: number) =>
  new ApiError(429, 'rate_limited', 'too many changes', undefined, retryAfterMs);

describe('outbox entries answered 429', () => {
  it('are not rejections (kept and sent again), unlike another 4xx', () => {
    expect(isRejection(refusal(30_000))).toBe(false);
    expect(isRejection(new ApiError(409, 'conflict', 'changed elsewhere'))).toBe(true);
  });

  it('wait as long as Retry-After says, at least 1 s and at most an hour', () => {
    expect(backedOff(entry, refusal(30_000), 1_000)).toMatchObject({
      next_attempt: 31_000,
      backoff_ms: 0,
      rate_limited: true,
      last_error: 'too many changes',
    });
    expect(backedOff(entry, refusal(0), 1_000).next_attempt).toBe(2_000);
    expect(backedOff(entry, refusal(86_400_000), 1_000).next_attempt).toBe(3_601_000);
  });

  it('without Retry-After back off as after any failure (5 s, doubling)', () => {
    expect(backedOff(entry, refusal(), 1_000)).toMatchObject({
      next_attempt: 6_000,
      backoff_ms: 5_000,
      rate_limited: true,
    });
    expect(backedOff({ ...entry, backoff_ms: 5_000 }, refusal(), 1_000).next_attempt).toBe(11_000);
  });
});
