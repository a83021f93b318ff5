import { useSignals } from '@preact/signals-react/runtime';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import type { SessionState } from '../../../contract/worker-api';
import { afterSignInRoute } from '../../lib/landing';
import { variantFromPath } from '../../lib/variant';
import { useShell } from '../../shell-context';

/**
 * After a successful sign-in or sign-up: the stored redirect if one was saved (000 §4),
 * otherwise the variant's landing route.
 *
 * When the session starts elsewhere (another tab signed in; the worker's session event reaches
 * this tab), a sign-in screen left open here moves on to the landing route instead of offering
 * a sign-in that already happened. It leaves the stored redirect alone: the worker keeps one for
 * all tabs, and it belongs to the tab where the user is signing in, which takes it a moment later.
 */
export function useCompleteSignIn() {
  useSignals();
  const router = useRouter();
  const { client, state, product } = useShell();
  /** Set while this screen is leaving, so a sign-in is completed once. */
  const leaving = useRef(false);

  const land = async (takeRedirect: boolean) => {
    leaving.current = true;
    try {
      await state.loadAccount();
      const variant = variantFromPath(router.state.location.pathname);
      const { path } = takeRedirect ? await client.call('auth.takeRedirect', {}) : { path: null };
      const target = path ?? afterSignInRoute(variant, state.$flags.value, product);
      // Focus would stay on the body of the screen that is going away: the page arrived at
      // takes it on its heading.
      state.requestHeadingFocus();
      await router.navigate({ href: target, replace: true });
    } catch (error) {
      leaving.current = false;
      state.takeHeadingFocus();
      throw error;
    }
  };

  const status = state.$session.value?.status;
  useEffect(() => {
    if (status !== 'signed-in' || leaving.current) return;
    // Nothing to show for a failure here: the form stays, and a sign-in from it tries again.
    land(false).catch(() => {});
    // `land` reads only refs, the router and shell services; the status is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status]);

  /**
   * Runs this screen's sign-in (`start` asks the worker) and completes it. The screen counts as
   * leaving from the start: the worker tells every tab, this one included, about the new
   * session before `start` answers, and that event must not send this tab elsewhere first.
   */
  return async (start: () => Promise<SessionState>) => {
    leaving.current = true;
    try {
      const session = await start();
      if (session.status !== 'signed-in') {
        throw new Error('The sign-in did not start a session. Try again.');
      }
      state.setSession(session);
    } catch (error) {
      leaving.current = false;
      throw error;
    }
    await land(true);
  };
}
