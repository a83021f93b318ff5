// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createNavMachine,
  initialNavState,
  navReducer,
  type NavAction,
  type NavContext,
  type NavState,
} from '../../src/lib/nav-machine';

const STATES: NavState[] = ['closed', 'close', 'open', 'opened', 'peek'];
const desktop: NavContext = { routeHasNav: true, isLaptopOrSmaller: false, navWidth: 240 };
const laptop: NavContext = { ...desktop, isLaptopOrSmaller: true };
const noNav: NavContext = { ...desktop, routeHasNav: false };

/** Each action's result from closed, close, open, opened, peek (000 §4). */
const table: Array<[string, NavAction, NavContext, NavState[]]> = [
  ['close', { type: 'close' }, desktop, ['closed', 'close', 'close', 'close', 'close']],
  ['close off-nav', { type: 'close' }, noNav, ['closed', 'close', 'open', 'opened', 'peek']],
  ['closed', { type: 'closed' }, desktop, ['closed', 'closed', 'closed', 'closed', 'closed']],
  ['closed off-nav', { type: 'closed' }, noNav, ['closed', 'closed', 'closed', 'closed', 'closed']],
  ['open', { type: 'open' }, desktop, ['open', 'open', 'open', 'opened', 'open']],
  [
    'open (user)',
    { type: 'open', source: 'user' },
    laptop,
    ['open', 'open', 'open', 'opened', 'open'],
  ],
  ['open off-nav', { type: 'open' }, noNav, ['closed', 'close', 'open', 'opened', 'peek']],
  [
    'open from overlay, laptop',
    { type: 'open', source: 'overlay' },
    laptop,
    ['closed', 'close', 'open', 'opened', 'peek'],
  ],
  [
    'open from overlay, desktop',
    { type: 'open', source: 'overlay' },
    desktop,
    ['open', 'open', 'open', 'opened', 'open'],
  ],
  ['opened', { type: 'opened' }, desktop, ['opened', 'opened', 'opened', 'opened', 'opened']],
  ['toggle', { type: 'toggle' }, desktop, ['open', 'open', 'close', 'close', 'open']],
  ['peek', { type: 'peek' }, desktop, ['peek', 'close', 'open', 'opened', 'peek']],
  [
    'hide at nav width + 17',
    { type: 'hide', mouseX: 257 },
    desktop,
    ['closed', 'close', 'open', 'opened', 'closed'],
  ],
  [
    'hide at nav width + 16',
    { type: 'hide', mouseX: 256 },
    desktop,
    ['closed', 'close', 'open', 'opened', 'peek'],
  ],
  ['hide inside the nav', { type: 'hide', mouseX: 100 }, desktop, STATES],
];

describe('navReducer: every action from every state', () => {
  it.each(table)('%s', (_name, action, ctx, expected) => {
    expect(STATES.map((s) => navReducer(s, action, ctx))).toEqual(expected);
  });

  it('measures the hide threshold from the nav width it is given', () => {
    const wide = { ...desktop, navWidth: 300 };
    expect(navReducer('peek', { type: 'hide', mouseX: 316 }, wide)).toBe('peek');
    expect(navReducer('peek', { type: 'hide', mouseX: 317 }, wide)).toBe('closed');
  });
});

describe('initialNavState', () => {
  it.each<[unknown, NavState]>([
    ['open', 'opened'],
    ['opened', 'opened'],
    ['close', 'closed'],
    ['closed', 'closed'],
    ['peek', 'peek'],
    ['sideways', 'opened'],
    ['', 'opened'],
    [42, 'opened'],
    [null, 'opened'],
    [undefined, 'opened'],
  ])('stored %j on desktop -> %s', (value, state) => {
    expect(initialNavState({ isTablet: false, value })).toBe(state);
  });

  it.each(['open', 'opened', 'peek', undefined])(
    'is closed on tablets whatever is stored (%s)',
    (v) => {
      expect(initialNavState({ isTablet: true, value: v })).toBe('closed');
    },
  );
});

describe('createNavMachine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(opts: { initial?: NavState; ctx?: Partial<NavContext> } = {}) {
    let ctx: NavContext = { ...desktop, ...opts.ctx };
    const changes: NavState[] = [];
    const machine = createNavMachine({
      initial: opts.initial ?? 'opened',
      context: () => ctx,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      onChange: (s) => changes.push(s),
    });
    return { machine, changes, setCtx: (c: Partial<NavContext>) => (ctx = { ...ctx, ...c }) };
  }

  it('becomes closed 500 ms after close', () => {
    const { machine, changes } = setup();
    machine.dispatch({ type: 'close' });
    expect(machine.state()).toBe('close');
    vi.advanceTimersByTime(499);
    expect(machine.state()).toBe('close');
    vi.advanceTimersByTime(1);
    expect(machine.state()).toBe('closed');
    expect(changes).toEqual(['close', 'closed']);
  });

  it('does not close after reopening within 500 ms', () => {
    const { machine } = setup();
    machine.dispatch({ type: 'toggle' });
    expect(machine.state()).toBe('close');
    vi.advanceTimersByTime(300);
    machine.dispatch({ type: 'toggle' });
    expect(machine.state()).toBe('open');
    vi.advanceTimersByTime(1000);
    expect(machine.state()).toBe('open');
  });

  it('does not restart the timer on a repeated close', () => {
    const { machine } = setup();
    machine.dispatch({ type: 'close' });
    vi.advanceTimersByTime(400);
    machine.dispatch({ type: 'close' });
    vi.advanceTimersByTime(100);
    expect(machine.state()).toBe('closed');
  });

  it('reports nothing when an action changes nothing', () => {
    const { machine, changes } = setup({ initial: 'closed' });
    machine.dispatch({ type: 'close' });
    machine.dispatch({ type: 'hide', mouseX: 999 });
    expect(changes).toEqual([]);
  });

  it('peeks from closed and hides past nav width + 16 px', () => {
    const { machine } = setup({ initial: 'closed' });
    machine.dispatch({ type: 'peek' });
    expect(machine.state()).toBe('peek');
    machine.dispatch({ type: 'hide', mouseX: 256 });
    expect(machine.state()).toBe('peek');
    machine.dispatch({ type: 'hide', mouseX: 257 });
    expect(machine.state()).toBe('closed');
  });

  it('closes when an overlay opens and reopens when it closes (desktop)', () => {
    const { machine, changes } = setup();
    machine.overlayOpened();
    vi.advanceTimersByTime(500);
    expect(machine.state()).toBe('closed');
    machine.overlayClosed();
    expect(machine.state()).toBe('open');
    expect(changes).toEqual(['close', 'closed', 'open']);
  });

  it('stays closed when the overlay closes on laptop and smaller', () => {
    const { machine } = setup({ ctx: { isLaptopOrSmaller: true } });
    machine.overlayOpened();
    vi.advanceTimersByTime(500);
    machine.overlayClosed();
    expect(machine.state()).toBe('closed');
  });

  it('ignores overlays on routes without navigation', () => {
    const { machine } = setup({ ctx: { routeHasNav: false } });
    machine.overlayOpened();
    expect(machine.state()).toBe('opened');
    vi.advanceTimersByTime(500);
    expect(machine.state()).toBe('opened');
  });

  it('reads the route context at each action', () => {
    const { machine, setCtx } = setup();
    setCtx({ routeHasNav: false });
    machine.dispatch({ type: 'close' });
    expect(machine.state()).toBe('opened');
    setCtx({ routeHasNav: true });
    machine.dispatch({ type: 'close' });
    expect(machine.state()).toBe('close');
  });

  it('stops its timer on dispose', () => {
    const { machine } = setup();
    machine.dispatch({ type: 'close' });
    machine.dispose();
    vi.advanceTimersByTime(1000);
    expect(machine.state()).toBe('close');
  });

  it('resumes a pending auto-close after dispose (a StrictMode remount)', () => {
    const { machine, changes } = setup();
    machine.dispatch({ type: 'close' });
    vi.advanceTimersByTime(200);
    machine.dispose();
    machine.resume();
    vi.advanceTimersByTime(499);
    expect(machine.state()).toBe('close');
    vi.advanceTimersByTime(1);
    expect(machine.state()).toBe('closed');
    expect(changes).toEqual(['close', 'closed']);
  });

  it('resume does nothing outside close, nor twice', () => {
    const { machine, changes } = setup();
    machine.resume();
    vi.advanceTimersByTime(1000);
    expect(machine.state()).toBe('opened');
    machine.dispatch({ type: 'close' });
    machine.resume();
    machine.resume();
    vi.advanceTimersByTime(500);
    expect(changes).toEqual(['close', 'closed']);
  });
});
