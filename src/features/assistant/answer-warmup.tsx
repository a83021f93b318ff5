import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createCitationStore } from './citation-store';
import { appendBlocks, EMPTY_BLOCKS } from './markdown-blocks';
import { CitationContext, StreamingMarkdown } from './streaming-markdown';

/**
 * A short answer with every kind of block the answers use (no app links: the warm-up renders
 * outside the router).
 */
const SAMPLE = [
  '## Quarterly results',
  'Revenue rose **12%** to $4.1 billion, driven by *services* [1]. Net profit fell [2][3].',
  '- Gross margin widened to 41% [4]\n- Costs: see [the filing](https://example.com/10-k) [5]\n  1. Research\n  2. Sales',
  '| Segment | Revenue | Change |\n| --- | ---: | ---: |\n| Cloud | 2.1 | +18% [6] |\n| Devices | 1.2 | -4% |',
  '> Management expects `flat` demand ~~next year~~ in 2026 [7].',
  '```\nguidance: 4.3-4.5bn\n```',
].join('\n\n');
const STEPS = 12;
let warmed = false;

/**
 * Streams SAMPLE into a detached answer, one step per idle callback, then unmounts it. The
 * code that renders an answer (the markdown parser, the block splitter, React's reconciling of
 * the answer's elements) runs unoptimised its first times: without this, the first second of a
 * tab's first answer rendered each update several times slower than the rest and dropped
 * frames. Nothing is attached to the page, so nothing is laid out or painted. Once per page;
 * returns the cancel.
 */
export function warmAnswers(): () => void {
  if (warmed || typeof requestIdleCallback !== 'function' || typeof document === 'undefined') {
    return () => {};
  }
  const root = createRoot(document.createElement('div'));
  const store = createCitationStore();
  let state = EMPTY_BLOCKS;
  let step = 0;
  let handle = 0;
  const next = () => {
    const from = Math.floor((SAMPLE.length * step) / STEPS);
    step += 1;
    state = appendBlocks(state, SAMPLE.slice(from, Math.floor((SAMPLE.length * step) / STEPS)));
    flushSync(() =>
      root.render(
        <CitationContext.Provider value={store}>
          <StreamingMarkdown state={state} />
        </CitationContext.Provider>,
      ),
    );
    if (step < STEPS) {
      handle = requestIdleCallback(next);
      return;
    }
    warmed = true;
    root.unmount();
  };
  handle = requestIdleCallback(next);
  return () => {
    cancelIdleCallback(handle);
    if (step < STEPS) setTimeout(() => root.unmount(), 0);
  };
}
