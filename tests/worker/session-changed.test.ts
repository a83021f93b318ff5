import { describe, expect, it } from 'vitest';
import { ApiError, sessionChanged } from '../../worker/api-errors';

/** One 'session_changed' error for reads and token refresh alike (worker/api-errors.ts). */
describe('sessionChanged', () => {
  it('is a 401 session_changed naming what was dropped', () => {
    const error = sessionChanged('search.window');
    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 401,
      code: 'session_changed',
      message: 'search.window: the session changed while it loaded',
    });
  });

  it('says why, when the caller knows', () => {
    expect(sessionChanged('Token refresh', 'the session ended in another tab').message).toBe(
      'Token refresh: the session ended in another tab',
    );
  });
});
