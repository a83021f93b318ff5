import { signal, useSignalEffect } from '@preact/signals-react';
import { useRef } from 'react';
import { isApiErrorLike, serverMessage, userMessage } from '../lib/user-message';
import { useShellIfAny } from '../shell-context';

/** Outside a shell (a panel rendered alone) the state never moves. */
const ALWAYS_ONLINE = signal(true);

/**
 * A failed read in the spec's words (never "HTTP 4xx"; lib/user-message.ts) with a Try again
 * button: what every list and panel shows when loading fails. It also tries again by itself
 * when the worker reaches the server after being offline, so a panel that failed while the
 * server was down clears once it is back.
 */
export function RetryAlert(props: { error: unknown; onRetry: () => void }) {
  const $online = useShellIfAny()?.state.$online ?? ALWAYS_ONLINE;
  const retry = useRef(props.onRetry);
  retry.current = props.onRetry;
  const wasOnline = useRef($online.peek());
  useSignalEffect(() => {
    const online = $online.value;
    if (online && !wasOnline.current) retry.current();
    wasOnline.current = online;
  });
  // A request the user must change (a malformed query: 400 with the server's words) says what
  // is wrong; trying it again as it is would fail the same way (issue 18).
  const fixable =
    isApiErrorLike(props.error) &&
    props.error.status === 400 &&
    serverMessage(props.error) !== null;
  return (
    <div className="form-error" role="alert">
      {userMessage(props.error)}
      {fixable ? null : (
        <>
          {' '}
          <button type="button" className="button secondary small" onClick={props.onRetry}>
            Try again
          </button>
        </>
      )}
    </div>
  );
}
