import { useEffect } from 'react';
import { Toaster, toast, useToasterStore } from 'react-hot-toast';
import { TOAST_DURATIONS_MS, TOAST_LIMIT } from '../../contract/constants';
import type { ToastKind } from '../state/shell-state';

/** Shows one toast of the spec's kinds (000 §3 "Toast"); durations come from the Toaster. */
export function showToast(kind: ToastKind, message: string): void {
  switch (kind) {
    case 'success':
      toast.success(message);
      return;
    case 'error':
      toast.error(message);
      return;
    case 'loading':
      toast.loading(message);
      return;
    case 'custom':
      toast(message, { duration: TOAST_DURATIONS_MS.custom });
      return;
    case 'blank':
      toast(message);
      return;
  }
}

/** The toast host: the spec's durations (000 §9), paused on hover, at most TOAST_LIMIT shown. */
export function ShellToaster() {
  const { toasts } = useToasterStore();

  useEffect(() => {
    const visible = toasts.filter((t) => t.visible);
    // Newest first: everything past the limit is the oldest, dismissed to make room.
    for (const extra of visible.slice(TOAST_LIMIT)) toast.dismiss(extra.id);
  }, [toasts]);

  return (
    <Toaster
      position="bottom-right"
      containerClassName="toaster"
      toastOptions={{
        duration: TOAST_DURATIONS_MS.blank,
        blank: { duration: TOAST_DURATIONS_MS.blank },
        error: { duration: TOAST_DURATIONS_MS.error },
        success: { duration: TOAST_DURATIONS_MS.success },
        loading: { duration: TOAST_DURATIONS_MS.loading },
        custom: { duration: TOAST_DURATIONS_MS.custom },
      }}
    />
  );
}
