import {
  NAV_AUTO_CLOSE_MS,
  NAV_HIDE_MARGIN_PX,
  NavState as NavStateSchema,
  type NavState,
} from '../../contract';

export type { NavState };

/**
 * The side navigation's actions (000 §4). `source: 'overlay'` marks an open sent because an
 * overlay closed. `open` is the sliding-in state; the shell sends `opened` when it has finished.
 */
export type NavAction =
  | {
      type: 'close' | 'closed' | 'open' | 'opened' | 'toggle' | 'peek';
      source?: 'overlay' | 'user';
    }
  | { type: 'hide'; mouseX: number };

export type NavContext = { routeHasNav: boolean; isLaptopOrSmaller: boolean; navWidth: number };

/** The side navigation's transitions, exactly as 000 §4 lists them. */
export function navReducer(state: NavState, action: NavAction, ctx: NavContext): NavState {
  switch (action.type) {
    case 'close':
      // Only routes that show the navigation close it; closed stays closed.
      if (!ctx.routeHasNav || state === 'closed') return state;
      return 'close';
    case 'closed':
      return 'closed';
    case 'open':
      if (action.source === 'overlay' && ctx.isLaptopOrSmaller) return state;
      if (!ctx.routeHasNav) return state;
      return state === 'opened' ? 'opened' : 'open';
    case 'opened':
      return 'opened';
    case 'toggle':
      return state === 'opened' || state === 'open' ? 'close' : 'open';
    case 'peek':
      return state === 'closed' ? 'peek' : state;
    case 'hide':
      return state === 'peek' && action.mouseX > ctx.navWidth + NAV_HIDE_MARGIN_PX
        ? 'closed'
        : state;
  }
}

/**
 * The starting state (000 §4): closed on tablets; otherwise the stored nav_state preference or
 * a given value, where open means opened and close means closed; an invalid or missing value
 * gives opened.
 */
export function initialNavState(input: { isTablet: boolean; value?: unknown }): NavState {
  if (input.isTablet) return 'closed';
  const parsed = NavStateSchema.safeParse(input.value);
  if (!parsed.success) return 'opened';
  if (parsed.data === 'open') return 'opened';
  if (parsed.data === 'close') return 'closed';
  return parsed.data;
}

export type NavMachineDeps = {
  initial: NavState;
  context: () => NavContext;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  onChange: (state: NavState) => void;
};

export type NavMachine = {
  state(): NavState;
  dispatch(action: NavAction): void;
  /** An overlay opened: the navigation receives close. */
  overlayOpened(): void;
  /** The overlay closed: the navigation receives open from the overlay. */
  overlayClosed(): void;
  /** Stops the auto-close timer (the machine's owner is going away, perhaps only for now). */
  dispose(): void;
  /**
   * Starts again after dispose: a machine left in close gets its auto-close timer back, so a
   * dispose-and-remount (React's StrictMode does one) cannot leave the navigation stuck in close.
   */
  resume(): void;
};

/**
 * The navigation with its timing and overlay interplay (000 §4): close becomes closed after
 * 500 ms; an overlay opening sends close, its closing sends open from the overlay.
 *
 * Not here, on purpose: 000 §4's "an overlay wider than 80% of the viewport shrinks to 0.8 of
 * its width when the navigation opens; the navigation closes if it reaches opened while the
 * overlay is wider than 80%". Every overlay type's maximum is 80% (000 §9: Preview 80/80/80,
 * ask 35/80/35, CustomFeed 50/80/50, Portfolio 50/80/50, Report 60/80/80) and every width is
 * clamped to its type's maximum (src/lib/overlay.ts clampWidth), so no overlay is ever wider
 * than 80%: the rule can never fire, and code for it would be untestable through the app.
 */
export function createNavMachine(deps: NavMachineDeps): NavMachine {
  let state = deps.initial;
  let timer: { handle: unknown } | null = null;

  const stopTimer = () => {
    if (timer) deps.clearTimeout(timer.handle);
    timer = null;
  };

  const dispatch = (action: NavAction) => {
    const previous = state;
    const next = navReducer(previous, action, deps.context());
    if (next === previous) return;
    state = next;
    if (next !== 'close') stopTimer();
    deps.onChange(next);

    if (next === 'close') armAutoClose();
  };

  function armAutoClose() {
    if (!timer) timer = { handle: deps.setTimeout(() => onAutoClose(), NAV_AUTO_CLOSE_MS) };
  }

  const onAutoClose = () => {
    timer = null;
    if (state === 'close') dispatch({ type: 'closed' });
  };

  return {
    state: () => state,
    dispatch,
    overlayOpened: () => dispatch({ type: 'close', source: 'overlay' }),
    overlayClosed: () => dispatch({ type: 'open', source: 'overlay' }),
    dispose: stopTimer,
    resume: () => {
      if (state === 'close') armAutoClose();
    },
  };
}
