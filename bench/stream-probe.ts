/**
 * What bench/stream's init script records in a page (ours and the naive baseline alike), all
 * in the page's performance.now() milliseconds.
 */
export type StreamProbe = {
  /** Frames (requestAnimationFrame times) while `recording`. */
  recording: boolean;
  frames: number[];
  longTasks: Array<{ start: number; duration: number }>;
  /** Keystrokes: the event's timeStamp, when its first listener ran, the frame after it. */
  keys: Array<{ stamp: number; handled: number; frame: number }>;
  /** The worst Event Timing duration (input to the next paint) of key events, 0 when none. */
  worstEventTiming: number;
  /** The first answer text to reach the page (ours: the first 'ask' patch while streaming). */
  firstChunk: number | null;
  /** DONE reached the page (ours: the worker's 'ask' update carrying the answer's data). */
  done: number | null;
  /** 'ask' updates received by this tab (ours), and their biggest `append`. */
  updates: number;
  biggestAppend: number;
  /** The answer's element (a selector). */
  target: string;
  /** After DONE: each frame's time once painted (a task queued from its animation frame). */
  after: number[];
  /** After DONE: the last change in the target or what holds it (null: none). */
  lastChange: number | null;
  /** The last change of the answer's text itself (nodes and characters, not attributes). */
  lastTextChange: number | null;
  /**
   * After DONE: the last change beside the answer in the message that holds it (ours: the
   * sources, notices, follow-ups and actions; null: none, as in the baseline).
   */
  lastExtrasChange: number | null;
};

/**
 * Installed before any script of the page. Besides frames, long tasks and keystrokes, it sees
 * the worker's 'ask' events arrive in the tab without the app's help: comlink delivers them on a
 * MessagePort to a listener added with addEventListener, which this wraps (the listener still
 * runs, unchanged, right after). A page without a worker (the baseline) sets firstChunk and done
 * itself. A string, not a function: tsx would wrap a function's inner functions in a helper the
 * page lacks.
 */
export const PROBE_SCRIPT = `(() => {
  const probe = {
    recording: false, frames: [], longTasks: [], keys: [], worstEventTiming: 0,
    firstChunk: null, done: null, updates: 0, biggestAppend: 0, target: '', after: [], lastChange: null, lastTextChange: null, lastExtrasChange: null,
  };
  window.__stream = probe;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name.startsWith('key')) probe.worstEventTiming = Math.max(probe.worstEventTiming, e.duration);
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  } catch {}
  const frame = (t) => {
    if (probe.recording) probe.frames.push(t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.addEventListener('keydown', (e) => {
    const entry = { stamp: e.timeStamp, handled: performance.now(), frame: 0 };
    probe.keys.push(entry);
    requestAnimationFrame(() => { entry.frame = performance.now(); });
  }, true);

  probe.signature = () => {
    const el = probe.target ? document.querySelector(probe.target) : null;
    const text = el ? el.textContent || '' : '';
    return text.length + ':' + text.slice(-80);
  };
  // After DONE: when the target (or what holds it) last changed, and each frame's time once
  // painted. Mutations are timed in the observer's microtask, right after the change.
  const touches = (node) => {
    const el = probe.target ? document.querySelector(probe.target) : null;
    return !!el && (el === node || el.contains(node) || node.contains(el));
  };
  const beside = (node) => {
    const el = probe.target ? document.querySelector(probe.target) : null;
    const message = el && el.closest('article');
    return !!message && message.contains(node) && !touches(node);
  };
  probe.markDone = () => {
    if (probe.done !== null) return;
    probe.done = performance.now();
    new MutationObserver((records) => {
      const mine = records.filter((r) => touches(r.target));
      if (mine.length) probe.lastChange = performance.now();
      if (mine.some((r) => r.type !== 'attributes')) probe.lastTextChange = performance.now();
      if (records.some((r) => beside(r.target))) probe.lastExtrasChange = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const until = probe.done + 3000;
    const frame = () => {
      setTimeout(() => probe.after.push(performance.now()), 0);
      if (performance.now() < until) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  };

  const inspect = (data) => {
    const args = data && data.type === 'APPLY' ? data.argumentList : null;
    const event = args && args[0] && args[0].value;
    if (!event || event.type !== 'ask') return;
    const u = event.update;
    probe.updates++;
    let finished = false;
    if (u.kind === 'patch') {
      probe.biggestAppend = Math.max(probe.biggestAppend, u.append.length);
      if (u.append && probe.firstChunk === null) probe.firstChunk = performance.now();
      finished = u.phase === 'done' || u.phase === 'stopped' || u.phase === 'error';
    } else {
      const bots = u.chat.messages.filter((m) => m.type === 'bot');
      const last = bots[bots.length - 1];
      if (last && last.streamingAnswer && probe.firstChunk === null) probe.firstChunk = performance.now();
      finished = !!last && last.phase === 'done' && probe.firstChunk !== null;
    }
    if (finished) probe.markDone();
  };
  const wrapped = new WeakMap();
  const add = MessagePort.prototype.addEventListener;
  const remove = MessagePort.prototype.removeEventListener;
  MessagePort.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message' || typeof listener !== 'function') return add.call(this, type, listener, options);
    let outer = wrapped.get(listener);
    if (!outer) {
      outer = function (ev) {
        try { inspect(ev.data); } catch {}
        return listener.call(this, ev);
      };
      wrapped.set(listener, outer);
    }
    return add.call(this, type, outer, options);
  };
  MessagePort.prototype.removeEventListener = function (type, listener, options) {
    return remove.call(this, type, (typeof listener === 'function' && wrapped.get(listener)) || listener, options);
  };
})();`;

/** The figures of one streamed answer in one page. */
export type PageFigures = {
  longTasks: number;
  longestTask: number;
  frames: number;
  p99Gap: number;
  maxGap: number;
  keystrokes: number;
  /** Worst keystroke: its timeStamp to the first frame after its handler ran. */
  worstKey: number;
  worstKeyHandler: number;
  worstEventTiming: number;
  /** DONE reaching the page to the first frame painted after the text's last change. */
  donePainted: number | null;
  /** ... after the last change of any kind (the [n] markers' link attributes included). */
  linksPainted: number | null;
  /** ... after the last change beside the answer (sources, notices, follow-ups, actions). */
  extrasPainted: number | null;
  streamSeconds: number;
  updates: number;
  /** Where the time went: frame gaps over 20 ms and long tasks before DONE and after it. */
  slowFrames: { streaming: number; afterDone: number };
  longTasksAfterDone: number;
};

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

/**
 * The figures from a finished probe: frames and long tasks from the first answer text to the
 * final text painted (long tasks from `asked`), keystrokes while streaming, and DONE to the
 * first frame painted after the answer's last change (or after DONE, if nothing changed).
 */
export function figuresOf(p: StreamProbe, asked: number): PageFigures {
  const start = p.firstChunk ?? asked;
  const paintedAfter = (change: number | null) => {
    const settled = Math.max(p.done ?? Infinity, change ?? -Infinity);
    return p.after.find((t) => t >= settled) ?? null;
  };
  const painted = paintedAfter(p.lastTextChange);
  const linked = paintedAfter(p.lastChange);
  const extras = p.lastExtrasChange === null ? null : paintedAfter(p.lastExtrasChange);
  const end = Math.max(linked ?? painted ?? p.done ?? Infinity, extras ?? -Infinity);
  const frames = p.frames.filter((t) => t >= start && t <= end);
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  const tasks = p.longTasks.filter((t) => t.start >= asked && t.start <= end + 500);
  const keys = p.keys.filter((k) => k.frame > 0);
  const done = p.done ?? Infinity;
  const slow = frames.slice(1).filter((t, i) => t - frames[i] > 20);
  return {
    longTasks: tasks.length,
    longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
    frames: frames.length,
    p99Gap: quantile(gaps, 0.99),
    maxGap: Math.max(0, ...gaps),
    keystrokes: keys.length,
    worstKey: Math.max(0, ...keys.map((k) => k.frame - k.stamp)),
    worstKeyHandler: Math.max(0, ...keys.map((k) => k.handled - k.stamp)),
    worstEventTiming: p.worstEventTiming,
    donePainted: painted === null || p.done === null ? null : painted - p.done,
    linksPainted: linked === null || p.done === null ? null : linked - p.done,
    extrasPainted: extras === null || p.done === null ? null : extras - p.done,
    streamSeconds: ((p.done ?? end) - start) / 1000,
    updates: p.updates,
    slowFrames: {
      streaming: slow.filter((t) => t <= done).length,
      afterDone: slow.filter((t) => t > done).length,
    },
    longTasksAfterDone: tasks.filter((t) => t.start + t.duration > done).length,
  };
}
