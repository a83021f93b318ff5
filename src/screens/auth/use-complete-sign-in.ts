import { useRouter } from '@tanstack/react-router';
import type { SessionState } from '../../../contract/worker-api';
import { afterSignInRoute } from '../../lib/landing';
import { variantFromPath } from '../../lib/variant';
import { useShell } from '../../shell-context';

/**
 * After a successful sign-in or sign-up: the stored redirect if one was saved (000 §4),
 * otherwise the variant's landing route.
 */
export function useCompleteSignIn() {
  const router = useRouter();
  const { client, state, product } = useShell();

  return async (session: SessionState) => {
    if (session.status !== 'signed-in') {
      throw new Error('The sign-in did not start a session. Try again.');
    }
    state.setSession(session);
    await state.loadAccount();
    const variant = variantFromPath(router.state.location.pathname);
    const { path } = await client.call('auth.takeRedirect', {});
    const target = path ?? afterSignInRoute(variant, state.$flags.value, product);
    await router.navigate({ href: target, replace: true });
  };
}
