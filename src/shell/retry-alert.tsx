import { userMessage } from '../lib/user-message';

/**
 * A failed read in the spec's words (never "HTTP 4xx"; lib/user-message.ts) with a Try again
 * button: what every list and panel shows when loading fails.
 */
export function RetryAlert(props: { error: unknown; onRetry: () => void }) {
  return (
    <div className="form-error" role="alert">
      {userMessage(props.error)}{' '}
      <button type="button" className="button secondary small" onClick={props.onRetry}>
        Try again
      </button>
    </div>
  );
}
