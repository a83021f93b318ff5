import { useSignals } from '@preact/signals-react/runtime';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { dragResize, widthPx, withoutOverlayParams, type OverlayParse } from '../lib/overlay';
import { useShell } from '../shell-context';
import { OverlayBody, overlayTitle } from './overlay-panels';

type ShownOverlay = Exclude<OverlayParse, { status: 'none' }>;

/** Error panels have no type to size by: the spec's small size. */
const ERROR_PANEL_PERCENT = 35;

/**
 * The side panel driven by overlay-* params (000 §2 "Overlays"): slides in from the right,
 * resizable by dragging its left edge (clamped to the type's minimum and maximum), with a close
 * button that drops every overlay-* param.
 */
export function OverlayHost(props: {
  overlay: ShownOverlay;
  /** Current width in percent of the viewport (the remembered width per type). */
  widthPercent: number;
  viewportWidth: number;
  onClose: () => void;
}) {
  useSignals();
  const { state, client, product } = useShell();
  const { overlay, viewportWidth } = props;
  const type = overlay.status === 'ok' ? overlay.type : null;
  const percent = type ? props.widthPercent : ERROR_PANEL_PERCENT;
  const drag = useRef<{ startX: number; startPercent: number; last: number } | null>(null);
  const loggedUnknown = useRef<string | null>(null);
  const panel = useRef<HTMLElement>(null);

  // Focus moves into the panel when it opens and back to where it came from when it closes.
  useEffect(() => returnFocusOnClose(panel.current), []);
  // A panel closed mid-drag ends the drag too.
  useEffect(() => () => state.setOverlayResizing(false), [state]);

  useEffect(() => {
    if (overlay.status !== 'error' || !overlay.log || loggedUnknown.current === overlay.detail) {
      return;
    }
    loggedUnknown.current = overlay.detail;
    console.warn(overlay.log, overlay.detail);
    void client
      .call('log.debug', { logData: { message: overlay.log, detail: overlay.detail } })
      .catch(() => {});
  }, [overlay, client]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!type) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { startX: event.clientX, startPercent: percent, last: percent };
    // The pointer may travel to the window's left edge: the navigation must not peek meanwhile.
    state.setOverlayResizing(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!type || !drag.current) return;
    const next = dragResize(
      drag.current.startPercent,
      event.clientX - drag.current.startX,
      viewportWidth,
      type,
    );
    drag.current.last = next;
    state.setOverlayWidth(type, next, 'live');
  };
  const onPointerUp = () => {
    if (!type || !drag.current) return;
    const final = drag.current.last;
    drag.current = null;
    state.setOverlayResizing(false);
    // One save per drag, at its end; the moves before it were only shown.
    state.setOverlayWidth(type, final, 'now');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!type || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    event.preventDefault();
    // One percent of the viewport per key press; left widens, as with the pointer. Repeated
    // presses are stored once the user pauses, not once per press.
    const dx = ((event.key === 'ArrowLeft' ? -1 : 1) * viewportWidth) / 100;
    state.setOverlayWidth(type, dragResize(percent, dx, viewportWidth, type), 'soon');
  };

  const title = overlay.status === 'ok' ? overlayTitle(overlay.type, product) : 'Panel cannot open';
  const onPanelKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    props.onClose();
  };

  return (
    <aside
      ref={panel}
      className="overlay-panel"
      data-testid="overlay"
      aria-label={title}
      style={{ width: `${widthPx(percent, viewportWidth)}px` }}
      onKeyDown={onPanelKeyDown}
    >
      {type && overlay.status === 'ok' ? (
        <div
          className="overlay-resize"
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize panel"
          aria-valuemin={overlay.width.min}
          aria-valuemax={overlay.width.max}
          aria-valuenow={Math.round(percent)}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        />
      ) : null}
      <OverlayBody
        overlay={overlay}
        title={title}
        widthPercent={percent}
        onClose={props.onClose}
        onResize={(next) => type && state.setOverlayWidth(type, next, 'now')}
      />
    </aside>
  );
}

/**
 * Focuses the panel's heading, and returns a cleanup that, once the panel is gone, gives focus
 * back to the element that had it before (the button that opened the panel), or to the main
 * content when that element is gone too. Focus the user moved elsewhere meanwhile stays there.
 */
function returnFocusOnClose(panel: HTMLElement | null): (() => void) | undefined {
  if (!panel) return undefined;
  const before = document.activeElement;
  const opener = before instanceof HTMLElement && !panel.contains(before) ? before : null;
  panel.querySelector<HTMLElement>('[data-overlay-heading]')?.focus();
  return () => {
    const now = document.activeElement;
    const lost = !now || now === document.body || panel.contains(now);
    if (!lost) return;
    const target =
      opener && opener.isConnected && opener !== document.body
        ? opener
        : document.getElementById('main-content');
    target?.focus();
  };
}

/** Navigation helper: the close action of every overlay (`replace` for dropping a bad URL's). */
export function useCloseOverlay(): (opts?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  return useCallback(
    (opts?: { replace?: boolean }) => {
      void navigate({
        to: '.',
        search: (prev: Record<string, unknown>) => withoutOverlayParams(prev),
        replace: opts?.replace,
      });
    },
    [navigate],
  );
}
