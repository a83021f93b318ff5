import { useEffect, useRef, useState } from 'react';
import { isLaptopOrSmaller, isTablet } from '../lib/breakpoints';
import { createNavMachine, initialNavState, type NavMachine } from '../lib/nav-machine';
import { useShell } from '../shell-context';

/** The navigation's width in px; the hide threshold is this plus 16 px (000 §4). */
export const NAV_WIDTH_PX = 248;
/** How long the slide-in takes before the navigation counts as opened. */
const NAV_SLIDE_MS = 200;

export type NavInputs = {
  hasNav: boolean;
  viewportWidth: number;
  /** Whether an overlay panel is shown. */
  overlayOpen: boolean;
};

/**
 * The side navigation machine (src/lib/nav-machine) wired to the shell: state into $navState,
 * the stored nav_state as the start, the overlay's open and close.
 */
export function useNavMachine(inputs: NavInputs): NavMachine {
  const { state } = useShell();
  const live = useRef(inputs);
  live.current = inputs;

  const [machine] = useState(() =>
    createNavMachine({
      initial: initialNavState({
        isTablet: isTablet(inputs.viewportWidth),
        value: state.$preferences.peek()?.nav_state ?? undefined,
      }),
      context: () => ({
        routeHasNav: live.current.hasNav,
        isLaptopOrSmaller: isLaptopOrSmaller(live.current.viewportWidth),
        navWidth: NAV_WIDTH_PX,
      }),
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (handle) => window.clearTimeout(handle as number),
      onChange: (next) => state.setNavState(next),
    }),
  );

  // StrictMode mounts, disposes and mounts again: resume re-arms a pending auto-close.
  useEffect(() => {
    machine.resume();
    state.setNavState(machine.state());
    return () => machine.dispose();
  }, [machine, state]);

  // The overlay interplay (000 §4): an overlay opening closes the navigation, closing reopens it.
  const overlayOpen = inputs.overlayOpen;
  const wasOpen = useRef(false);
  useEffect(() => {
    if (overlayOpen && !wasOpen.current) machine.overlayOpened();
    if (!overlayOpen && wasOpen.current) machine.overlayClosed();
    wasOpen.current = overlayOpen;
  }, [overlayOpen, machine]);

  // `open` is the slide-in; it becomes `opened` once the slide has finished.
  const navState = state.$navState.value;
  useEffect(() => {
    if (navState !== 'open') return;
    const handle = window.setTimeout(() => machine.dispatch({ type: 'opened' }), NAV_SLIDE_MS);
    return () => window.clearTimeout(handle);
  }, [navState, machine]);

  // While peeking, moving the mouse away from the navigation hides it again.
  useEffect(() => {
    if (navState !== 'peek') return;
    const onMove = (event: MouseEvent) => machine.dispatch({ type: 'hide', mouseX: event.clientX });
    document.addEventListener('mousemove', onMove);
    return () => document.removeEventListener('mousemove', onMove);
  }, [navState, machine]);

  return machine;
}
