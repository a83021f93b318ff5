import { endpointPath } from '../../contract/endpoints';
import { defineServerDomain } from '../domain';
import { purgeAuth } from './maintenance';
import { authMigrations } from './migrations';
import { registerAuthRoutes } from './routes';
import { seedAccounts } from './seed';
import { signInThrottle } from './sign-in-throttle';
import { addressThrottle } from './throttle';

/** Accounts, sessions and their brute-force limits. */
export const authDomain = defineServerDomain({
  name: 'auth',
  register: registerAuthRoutes,
  // Ahead of idempotency: the throttles' records must outlive a failed request's rollback.
  guard: (app, deps) => {
    const path = (name: 'signIn' | 'signUp' | 'resetPassword') =>
      `/api${endpointPath(name, deps.product)}`;
    app.use(path('signIn'), signInThrottle(deps));
    app.use(path('signUp'), addressThrottle(deps, 'signup_ip', 'sign-up attempts'));
    app.use(path('resetPassword'), addressThrottle(deps, 'reset_ip', 'password reset attempts'));
  },
  migrations: authMigrations,
  seed: seedAccounts,
  maintain: (db, { now }) => purgeAuth(db, now),
});

// What other folders may import (eslint.config.js: only through this file).
export { findUserByEmail, resolveAuth } from './resolve';
export { DEMO_ACCOUNT, DEMO_ANALYST } from './seed';
