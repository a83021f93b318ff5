import { toast } from 'react-hot-toast';
import { TOAST_LONG_MS } from '../../../../contract/constants';

/**
 * The assistant's toasts last 8000 ms (001 §9 "Toast duration 8000 ms (this part)"), longer
 * than the shell's defaults that showToast gives, so they are raised here with that duration.
 */
export function historyToast(kind: 'success' | 'error', message: string): void {
  if (kind === 'success') toast.success(message, { duration: TOAST_LONG_MS });
  else toast.error(message, { duration: TOAST_LONG_MS });
}

export const SESSION_DELETED = 'Session deleted successfully';
