import { signal } from '@preact/signals-react';
import type { Preferences } from '../../contract/user';
import type { WorkspaceClient } from '../workspace-client';

/**
 * How a new overlay width is kept: `live` only shows it (a drag in progress), `now` stores it
 * at once (a drag's end, maximise), `soon` stores it once the user has stopped changing it for
 * OVERLAY_WIDTH_SAVE_DELAY_MS (key presses on the resize handle).
 */
export type OverlayWidthSave = 'live' | 'now' | 'soon';

/** Quiet time after the last resize key press before the width is stored. */
export const OVERLAY_WIDTH_SAVE_DELAY_MS = 300;

/**
 * The width (percent) the user last gave each overlay type, and its save machine. The width on
 * screen is the user's, so it is authoritative here: an answer to an earlier save (or the
 * worker's preferences event for it) arrives late and must not undo a newer width. Every local
 * change gets a number; a save remembers the number it carried.
 */
export function createOverlayWidths(deps: {
  client: WorkspaceClient;
  /** A save was answered; `current`: no newer width is waiting, so its widths may be shown. */
  saved: (preferences: Preferences, current: boolean) => void;
}) {
  const $overlayWidths = signal<Record<string, number>>({});
  /** An overlay's edge is being dragged: the navigation's peek must not open under the pointer. */
  const $overlayResizing = signal(false);

  let change = 0;
  let inFlight = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** A newer local width is not stored yet: stored widths must not replace it. */
  const pending = () => timer !== null || inFlight > 0;

  const save = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const carried = change;
    inFlight += 1;
    void deps.client.call('preferences.update', { overlay_widths: $overlayWidths.value }).then(
      (preferences) => {
        inFlight -= 1;
        // Only the answer to the newest change may set the widths; older ones are stale.
        deps.saved(preferences, carried === change && !pending());
      },
      () => {
        inFlight -= 1;
      },
    );
  };

  /** A new width for an overlay type, shown at once and stored as `how` says. */
  const setOverlayWidth = (type: string, percent: number, how: OverlayWidthSave) => {
    change += 1;
    $overlayWidths.value = { ...$overlayWidths.value, [type]: percent };
    if (how === 'now') {
      save();
    } else if (how === 'soon') {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(save, OVERLAY_WIDTH_SAVE_DELAY_MS);
    }
  };

  return {
    $overlayWidths,
    $overlayResizing,
    pending,
    /** The stored widths, shown (the caller checked `pending`). */
    show(widths: Preferences['overlay_widths']) {
      $overlayWidths.value = { ...widths };
    },
    setOverlayWidth,
    setOverlayResizing(resizing: boolean) {
      $overlayResizing.value = resizing;
    },
  };
}
