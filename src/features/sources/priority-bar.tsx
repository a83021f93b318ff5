import { useState } from 'react';
import { PRIORITY_TEXT } from '../../../contract/sources';
import { useShell } from '../../shell-context';
import { showToast } from '../../shell/toasts';
import { priorityBulk } from './source-rules';

/**
 * Bulk priority (002 §5, §8): for 1 to 50 selected sources, mark or unmark them as priority
 * websites. Over 50 the buttons are disabled with the spec's tooltip; the outcome is the spec's
 * toast, "Priority updated successfully." or its failure text.
 */
export function PriorityBar(props: { selected: ReadonlySet<string>; onDone: () => void }) {
  const { client } = useShell();
  const [busy, setBusy] = useState(false);
  const count = props.selected.size;
  const { enabled, tooltip } = priorityBulk(count);

  const apply = async (priority: boolean) => {
    setBusy(true);
    try {
      await client.call('sources.setPriority', { source_ids: [...props.selected], priority });
      showToast('success', PRIORITY_TEXT.success);
      props.onDone();
    } catch {
      showToast('error', PRIORITY_TEXT.failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="priority-bar" role="group" aria-label="Priority">
      <p className="muted" aria-live="polite">
        {count === 1 ? '1 source selected' : `${count} sources selected`}
      </p>
      {/* A disabled button shows no tooltip of its own: the wrapper carries it. */}
      <span title={tooltip ?? undefined} className="tooltip-host">
        <button
          type="button"
          className="button primary small"
          disabled={!enabled || busy}
          aria-describedby={tooltip ? 'priority-limit' : undefined}
          onClick={() => void apply(true)}
        >
          Mark as priority
        </button>
      </span>
      <span title={tooltip ?? undefined} className="tooltip-host">
        <button
          type="button"
          className="button secondary small"
          disabled={!enabled || busy}
          aria-describedby={tooltip ? 'priority-limit' : undefined}
          onClick={() => void apply(false)}
        >
          Remove priority
        </button>
      </span>
      {tooltip ? (
        <p id="priority-limit" className="form-error" role="status">
          {tooltip}
        </p>
      ) : null}
    </div>
  );
}
