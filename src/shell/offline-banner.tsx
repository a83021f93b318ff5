import { useSignals } from '@preact/signals-react/runtime';
import { useShell } from '../shell-context';

/**
 * The server cannot be reached (the worker's view, the same in every tab): what the tab shows
 * comes from this browser's copy, and changes wait rather than save. Gone as soon as the worker
 * reaches the server again (it probes every half second while a tab is visible).
 */
export function OfflineBanner() {
  useSignals();
  const { state } = useShell();
  if (state.$online.value) return null;
  const pending = state.$outboxPending.value;
  return (
    <div className="offline-banner" role="status">
      <strong>Offline: the server cannot be reached.</strong>{' '}
      <span>
        Showing what this browser has saved.{' '}
        {pending > 0
          ? `${pending} change${pending === 1 ? '' : 's'} will be sent when it is back.`
          : 'Changes you make will be sent when it is back.'}
      </span>
    </div>
  );
}
