/**
 * A streamed answer split into markdown blocks as it arrives, so the page re-renders only the
 * block still being written (ARCHITECTURE "The UI"). A block ends at a blank line, except inside
 * a code fence (kept whole to its closing fence) and inside a list (a blank line followed by
 * another item or an indented line continues it). Finished blocks never change again.
 *
 * Each append scans only the new characters: complete lines are classified once, when their
 * newline arrives; the line being written is kept aside. So an update costs O(appended), not
 * O(answer), and the open block's text is rebuilt from ropes (string concatenation) without
 * copying. `rebaseBlocks` moves to a different text (the final answer of DONE, a snapshot)
 * keeping every finished block the new text still has.
 */

type Scan = {
  /** Where the open block starts in the text. */
  readonly openStart: number;
  /** The open block's complete lines, each with its newline. */
  readonly open: string;
  /** Blank lines after a list's last line: kept only if the list goes on. */
  readonly blanks: string;
  /** The line being written (no newline yet). */
  readonly line: string;
  readonly kind: 'empty' | 'para' | 'list';
  /** The code fence the open block is inside, if any. */
  readonly fence: { readonly char: string; readonly size: number } | null;
};

export type BlocksState = {
  /** Finished blocks, in order; none of them changes once here. */
  readonly blocks: readonly string[];
  /** Where each finished block starts in `text`. */
  readonly starts: readonly number[];
  /** The open block: its complete lines and the line being written. */
  readonly tail: string;
  /** Everything appended so far. */
  readonly text: string;
  readonly length: number;
  /**
   * Changes when finished blocks may have been replaced (a rebase): within one epoch block i
   * is the same text for good, so a renderer may compare ranges by index alone.
   */
  readonly epoch: number;
  readonly scan: Scan;
};

const freshScan = (openStart: number): Scan => ({
  openStart,
  open: '',
  blanks: '',
  line: '',
  kind: 'empty',
  fence: null,
});

export const EMPTY_BLOCKS: BlocksState = {
  blocks: [],
  starts: [],
  tail: '',
  text: '',
  length: 0,
  epoch: 0,
  scan: freshScan(0),
};

const BLANK = /^\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;
const INDENTED = /^(?: {2,}|\t)/;
const FENCE_OPEN = /^\s*(`{3,}|~{3,})/;
const FENCE_CLOSE = /^\s*(`{3,}|~{3,})\s*$/;

type Mutable = {
  blocks: string[] | null;
  starts: number[] | null;
  scan: { -readonly [K in keyof Scan]: Scan[K] };
};

function finish(m: Mutable, state: BlocksState, nextStart: number) {
  const text = m.scan.open.replace(/\n+$/, '');
  if (text.trim()) {
    // Copied on the first block finished in this append only: appends are cheap otherwise.
    m.blocks ??= [...state.blocks];
    m.starts ??= [...state.starts];
    m.blocks.push(text);
    m.starts.push(m.scan.openStart);
  }
  m.scan = { ...freshScan(nextStart) };
}

/** One complete line (without its newline) that starts at `at` in the text. */
function takeLine(m: Mutable, state: BlocksState, line: string, at: number) {
  const s = m.scan;
  const next = at + line.length + 1;
  if (s.fence) {
    s.open += `${line}\n`;
    const close = FENCE_CLOSE.exec(line);
    if (close && close[1][0] === s.fence.char && close[1].length >= s.fence.size) s.fence = null;
    return;
  }
  if (BLANK.test(line)) {
    if (s.kind === 'empty') s.openStart = next;
    else if (s.kind === 'para') finish(m, state, next);
    else s.blanks += `${line}\n`;
    return;
  }
  if (s.kind === 'list' && s.blanks) {
    if (LIST_ITEM.test(line) || INDENTED.test(line)) {
      s.open += s.blanks;
      s.blanks = '';
    } else {
      finish(m, state, at);
    }
  }
  const scan = m.scan;
  scan.open += `${line}\n`;
  const fence = FENCE_OPEN.exec(line);
  if (fence) scan.fence = { char: fence[1][0], size: fence[1].length };
  if (LIST_ITEM.test(line)) scan.kind = 'list';
  else if (scan.kind === 'empty') scan.kind = 'para';
}

/** The blocks after `chunk` is appended. Pure: `state` is left as it was. */
export function appendBlocks(state: BlocksState, chunk: string): BlocksState {
  if (!chunk) return state;
  const m: Mutable = { blocks: null, starts: null, scan: { ...state.scan } };
  let lineStart = state.length - state.scan.line.length;
  let pos = 0;
  for (;;) {
    const newline = chunk.indexOf('\n', pos);
    if (newline < 0) {
      m.scan.line += chunk.slice(pos);
      break;
    }
    const line = m.scan.line + chunk.slice(pos, newline);
    m.scan.line = '';
    takeLine(m, state, line, lineStart);
    lineStart += line.length + 1;
    pos = newline + 1;
  }
  const scan = m.scan;
  return {
    blocks: m.blocks ?? state.blocks,
    starts: m.starts ?? state.starts,
    tail: scan.open + scan.blanks + scan.line,
    text: state.text + chunk,
    length: state.length + chunk.length,
    epoch: state.epoch,
    scan,
  };
}

/** The blocks of `text` from scratch. */
export function blocksOf(text: string): BlocksState {
  return appendBlocks(EMPTY_BLOCKS, text);
}

/** How many leading characters two texts share. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  if (a.slice(0, n) === b.slice(0, n)) return n;
  // Halving with native comparisons: far quicker than a character loop on long answers.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The blocks of `text`, reusing `state`'s: an extension is appended; otherwise scanning restarts
 * at the last block whose first line lies wholly in the part both texts share (a block's end
 * may depend on the first line of the block after it, as with lists), and the new epoch tells
 * renderers that blocks past that point may differ.
 */
export function rebaseBlocks(state: BlocksState, text: string): BlocksState {
  if (text === state.text) return state;
  if (text.length >= state.length && text.startsWith(state.text)) {
    return appendBlocks(state, text.slice(state.length));
  }
  const shared = commonPrefix(state.text, text);
  const points = [...state.starts, state.scan.openStart];
  let keep = 0;
  let from = 0;
  for (let k = points.length - 1; k >= 0; k -= 1) {
    const lineEnd = text.indexOf('\n', points[k]);
    if (points[k] < shared && lineEnd >= 0 && lineEnd < shared) {
      keep = k;
      from = points[k];
      break;
    }
  }
  const base: BlocksState = {
    blocks: state.blocks.slice(0, keep),
    starts: state.starts.slice(0, keep),
    tail: '',
    text: text.slice(0, from),
    length: from,
    epoch: state.epoch + 1,
    scan: freshScan(from),
  };
  return appendBlocks(base, text.slice(from));
}

/** The whole text as blocks (finished ones then the open one), for tests and copying. */
export function allBlocks(state: BlocksState): string[] {
  const tail = state.tail.replace(/\n+$/, '');
  return tail.trim() ? [...state.blocks, tail] : [...state.blocks];
}
