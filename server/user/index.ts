import { defineServerDomain } from '../domain';
import { ensureFlagDefaults } from './flags';
import { registerUserRoutes } from './routes';

/** The signed-in user's account: organisations, preferences, feature and onboarding flags. */
export const userDomain = defineServerDomain({
  name: 'user',
  register: registerUserRoutes,
  // Flags are product configuration: every start makes sure each known one has a default.
  prepare: (db, { product }) => ensureFlagDefaults(db, product),
});
