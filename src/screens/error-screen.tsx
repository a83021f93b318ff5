import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { SUPPORT_EMAIL } from '../../contract/constants';
import { isDecodablePath } from '../lib/path';
import { errorScreenMessage, UserFacingError } from '../lib/user-message';
import { useShell } from '../shell-context';
import { goBack } from '../shell/go-back';

/** The error's own text, for logs (never shown: see errorScreenMessage). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'An unexpected error occurred.';
}

/**
 * The generic error screen (000 §2, §8): "Something went wrong", what failed in words for the
 * user (never a raw module or HTTP message), the support contact and a way back.
 */
export function ErrorScreen(props: { error: unknown; onBack?: () => void }) {
  return (
    <main className="error-screen" role="alert">
      <div className="error-card">
        <h1>Something went wrong</h1>
        <p className="error-message">{errorScreenMessage(props.error)}</p>
        <p>
          If this keeps happening, contact us at{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
        <button type="button" className="button primary" onClick={props.onBack ?? (() => goBack())}>
          Go back
        </button>
      </div>
    </main>
  );
}

/**
 * The router's error component: a route's error as the generic error screen, logged to the
 * backend (POST /debug-logs through the worker) so support can see what the user saw.
 */
export function RouterError(props: { error: unknown }) {
  const { client } = useShell();
  const { error } = props;
  useEffect(() => {
    const stack = error instanceof Error && error.stack ? error.stack.slice(0, 4000) : undefined;
    void client
      .call('log.debug', {
        logData: {
          event: 'route_error',
          message: errorMessage(error),
          stack,
          path: location.pathname,
        },
      })
      .catch(() => {});
  }, [client, error]);
  return <ErrorScreen error={error} />;
}

/**
 * The router found no route: the generic error screen, saying the address is not valid when it
 * cannot even be decoded, else that there is no such page.
 */
export function RouteNotFound() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const error = isDecodablePath(pathname)
    ? new UserFacingError('There is no page at this address.')
    : new URIError(`URI malformed: ${pathname.slice(0, 200)}`);
  return <ErrorScreen error={error} />;
}
