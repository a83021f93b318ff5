import { cleanup, render } from '@testing-library/react';
import type * as AnswerProcessor from '../../src/features/assistant/answer-processor';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EMPTY_BLOCKS,
  allBlocks,
  appendBlocks,
  blocksOf,
  rebaseBlocks,
  type BlocksState,
} from '../../src/lib/markdown-blocks';
import { answerUrl } from '../../src/features/assistant/markdown-rules';
import { StreamingMarkdown } from '../../src/features/assistant/streaming-markdown';

/** Every markdown render of a block, by the markdown it rendered. */
const renders: string[] = [];
vi.mock('../../src/features/assistant/answer-processor', async (importOriginal) => {
  const real = await importOriginal<typeof AnswerProcessor>();
  const counted: typeof real.renderAnswerMarkdown = (text, components) => {
    renders.push(text);
    return real.renderAnswerMarkdown(text, components);
  };
  return { ...real, renderAnswerMarkdown: counted };
});

beforeEach(() => {
  renders.length = 0;
});
afterEach(() => cleanup());

const ANSWER = [
  '# Rates',
  'Central banks held rates.',
  '',
  'Inflation eased [1].',
  '',
  '- first',
  '- second',
  '',
  '- third',
  '  still third',
  '',
  'After the list.',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '1. one',
  '2. two',
].join('\n');

const EXPECTED = [
  '# Rates\nCentral banks held rates.',
  'Inflation eased [1].',
  '- first\n- second\n\n- third\n  still third',
  'After the list.',
  '```ts\nconst a = 1;\n\nconst b = 2;\n```',
  '1. one\n2. two',
];

function streamed(text: string, size: number): BlocksState {
  let state = EMPTY_BLOCKS;
  for (let i = 0; i < text.length; i += size) state = appendBlocks(state, text.slice(i, i + size));
  return state;
}

describe('markdown blocks', () => {
  it('splits at blank lines, keeping code fences and lists whole', () => {
    expect(allBlocks(blocksOf(ANSWER))).toEqual(EXPECTED);
  });

  it('gives the same blocks however the text is chunked', () => {
    for (const size of [1, 2, 3, 7, 40]) {
      expect(allBlocks(streamed(ANSWER, size)), `chunks of ${size}`).toEqual(EXPECTED);
    }
  });

  it('keeps the open block open: the last block finishes only when a blank line ends it', () => {
    const state = blocksOf('One.\n\nTwo is still');
    expect(state.blocks).toEqual(['One.']);
    expect(state.tail).toBe('Two is still');
    const next = appendBlocks(state, ' coming.\n\nThree');
    expect(next.blocks).toEqual(['One.', 'Two is still coming.']);
    expect(next.tail).toBe('Three');
    // Pure: the earlier state is as it was.
    expect(state.blocks).toEqual(['One.']);
    expect(next.blocks[0]).toBe(state.blocks[0]);
  });

  it('rebases onto a changed text, keeping the finished blocks before the change', () => {
    const before = blocksOf('Alpha.\n\nBeta [2].\n\nGamma [3].');
    const after = rebaseBlocks(before, 'Alpha.\n\nBeta.\n\nGamma [3].');
    expect(allBlocks(after)).toEqual(['Alpha.', 'Beta.', 'Gamma [3].']);
    expect(after.blocks[0]).toBe(before.blocks[0]);
    expect(after.epoch).toBe(before.epoch + 1);
    // An extension is an append: same epoch.
    const longer = rebaseBlocks(before, 'Alpha.\n\nBeta [2].\n\nGamma [3]. More.');
    expect(longer.epoch).toBe(before.epoch);
    expect(allBlocks(longer)).toEqual(['Alpha.', 'Beta [2].', 'Gamma [3]. More.']);
  });
});

describe('answer links', () => {
  it('keeps http(s), app previews and redirects, and citation markers; drops the rest', () => {
    expect(answerUrl('https://example.com/a')).toBe('https://example.com/a');
    expect(answerUrl('http://example.com/a')).toBe('http://example.com/a');
    expect(answerUrl('/preview/reuters/d1?highlight=1-5')).toBe(
      '/preview/reuters/d1?highlight=1-5',
    );
    expect(answerUrl('/redirect?url=x')).toBe('/redirect?url=x');
    expect(answerUrl('#cite-3')).toBe('#cite-3');
    expect(answerUrl('javascript:alert(1)')).toBeNull();
    expect(answerUrl('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(answerUrl('//evil.example/x')).toBeNull();
    expect(answerUrl('/settings/account')).toBeNull();
    expect(answerUrl('mailto:a@b.c')).toBeNull();
  });
});

describe('rendering an answer', () => {
  it('shows raw HTML as text: no element comes from the answer', () => {
    const { container } = render(
      <StreamingMarkdown
        state={blocksOf(
          'Hello <script>window.hacked = 1</script>\n\n<img src="x" onerror="window.hacked = 2">\n\n![pixel](https://tracker.example/p.png) [bad](javascript:alert(1))',
        )}
      />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.textContent).toContain('<script>window.hacked = 1</script>');
    expect(container.textContent).toContain('<img src="x" onerror="window.hacked = 2">');
    expect(container.textContent).toContain('[pixel]');
    const bad = [...container.querySelectorAll('a')].filter((a) => a.textContent === 'bad');
    expect(bad).toEqual([]);
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it('renders markdown: headings, lists, tables and code', () => {
    const { container } = render(
      <StreamingMarkdown
        state={blocksOf('## Title\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |')}
      />,
    );
    expect(container.querySelector('h2')?.textContent).toBe('Title');
    expect([...container.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['a', 'b']);
    expect(container.querySelector('td')?.textContent).toBe('1');
  });

  it('renders each finished block once; an append renders only the open block', () => {
    let state = blocksOf('First block.\n\nSecond block.\n\nThird is op');
    const { container, rerender } = render(<StreamingMarkdown state={state} />);
    expect(renders).toEqual(['First block.', 'Second block.', 'Third is op']);

    renders.length = 0;
    state = appendBlocks(state, 'en');
    rerender(<StreamingMarkdown state={state} />);
    expect(renders).toEqual(['Third is open']);

    renders.length = 0;
    state = appendBlocks(state, '.\n\nFourth');
    rerender(<StreamingMarkdown state={state} />);
    // The third block finished (rendered once as finished) and the fourth is open.
    expect(renders).toEqual(['Third is open.', 'Fourth']);
    expect(container.textContent).toBe('First block.Second block.Third is open.Fourth');
  });

  it('does not render finished blocks again on any append, however many there are', () => {
    const many = Array.from({ length: 150 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    let state = blocksOf(`${many}\n\nOpen`);
    const { rerender } = render(<StreamingMarkdown state={state} />);
    expect(renders.length).toBe(151);
    for (const word of [' one', ' two', ' three']) {
      renders.length = 0;
      state = appendBlocks(state, word);
      rerender(<StreamingMarkdown state={state} />);
      expect(renders).toEqual([state.tail]);
    }
  });
});
