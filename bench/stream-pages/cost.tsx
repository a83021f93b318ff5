import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { appendBlocks, blocksOf, type BlocksState } from '../../src/lib/markdown-blocks';
import { StreamingMarkdown } from '../../src/features/assistant/streaming-markdown';

/**
 * bench/stream's cost of one update, in Chromium, with the app's own code: the answer so far is
 * N characters (rendered, not timed), then the same stretch of answer arrives in frame-sized
 * appends, and each append is timed: `appendBlocks` plus a synchronous React render and commit
 * (flushSync) of the app's StreamingMarkdown (finished blocks memoised, the open block
 * re-rendered), and, separately, the style and layout that follow (a forced layout read). The
 * appended stretch is the same for every N, so only the answer's size differs. The naive
 * renderer's cost (react-markdown over the whole answer) is timed the same way for a few
 * updates.
 */

type Cost = { js: number[]; layout: number[] };
/** The answer's first `size` characters (to a block's end), then `stretch` in appends of `chunk`. */
type Run = { text: string; size: number; stretch: string; chunk: number; updates: number };

declare global {
  interface Window {
    __cost: { ours(run: Run): Cost; naive(run: Run): Cost };
  }
}

const host = document.getElementById('root')!;

/** Where a block starts at or after `at` (just past a blank line). */
const blockStart = (text: string, at: number) => {
  const i = text.indexOf('\n\n', at);
  return i < 0 ? text.length : i + 2;
};

function measure(run: Run, render: (state: BlocksState) => React.ReactNode): Cost {
  const root = createRoot(host);
  const prefix = run.text.slice(0, blockStart(run.text, run.size));
  let state = blocksOf(prefix);
  flushSync(() => root.render(render(state)));
  void host.offsetHeight;
  const cost: Cost = { js: [], layout: [] };
  for (let k = 0; k < run.updates; k++) {
    const chunk = run.stretch.slice(k * run.chunk, (k + 1) * run.chunk);
    const t0 = performance.now();
    state = appendBlocks(state, chunk);
    const next = state;
    flushSync(() => root.render(render(next)));
    const t1 = performance.now();
    void host.offsetHeight;
    cost.js.push(t1 - t0);
    cost.layout.push(performance.now() - t1);
  }
  root.unmount();
  return cost;
}

window.__cost = {
  ours: (run) => measure(run, (state) => <StreamingMarkdown state={state} />),
  naive: (run) =>
    measure(run, (state) => (
      <div className="answer-markdown">
        <ReactMarkdown remarkPlugins={[remarkGfm]}>{state.text}</ReactMarkdown>
      </div>
    )),
};
