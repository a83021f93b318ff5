import { useNavigate } from '@tanstack/react-router';
import {
  createContext,
  memo,
  useCallback,
  useContext,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import type { Components } from 'hast-util-to-jsx-runtime';
import { renderAnswerMarkdown } from './answer-processor';
import { createCitationStore, type CitationStore } from './citation-store';
import type { BlocksState } from '../../lib/markdown-blocks';
import { appPath, citeNumber } from './markdown-rules';
import './answer-markdown.css';

/**
 * A streamed answer rendered by blocks (ARCHITECTURE "The UI"): each finished block is one
 * memoised markdown render (answer-processor.ts), keyed by its index, so it renders once; only
 * the open block renders on every update. Finished blocks are grouped (GROUP per group,
 * memoised by range) so an update also does not walk every block, and the browser skips groups
 * off screen: its cost stays flat as the answer grows.
 */

/** Blocks per group: small enough that an on-screen group is cheap to lay out and paint. */
const GROUP = 24;

/** The answer's citations; a stable store (citation-store.ts), never replaced at DONE. */
export const CitationContext = createContext<CitationStore>(createCitationStore());

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * A `[n]` marker: rendered once, as its number; the citation store writes its link (href,
 * title, aria-label) on the element when the citations come (citation-store.ts), so DONE does
 * not render the markers again. Clicks are handled once for the whole answer
 * (StreamingMarkdown).
 */
function CitationMarker(props: { n: string }) {
  const store = useContext(CitationContext);
  const { n } = props;
  const attach = useCallback(
    (element: HTMLAnchorElement | null) => (element ? store.attach(element, n) : undefined),
    [store, n],
  );
  return (
    <sup className="cite-marker">
      <a data-cite={n} ref={attach}>
        [{n}]
      </a>
    </sup>
  );
}

/** An app page the answer links to (/preview, /redirect): opened in the app. */
function AppLink(props: { href: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <a
      href={props.href}
      onClick={(event) => {
        if (!plainClick(event)) return;
        event.preventDefault();
        void navigate({ href: props.href });
      }}
    >
      {props.children}
    </a>
  );
}

function AnswerLink(props: AnchorHTMLAttributes<HTMLAnchorElement>) {
  const { href, children } = props;
  const n = citeNumber(href);
  if (n !== null) return <CitationMarker n={n} />;
  if (!href) return <span>{children}</span>;
  if (appPath(href)) return <AppLink href={href}>{children}</AppLink>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

/** Images are not loaded from answers: their text stands in. */
function AnswerImage(props: { alt?: string }) {
  return props.alt ? <span className="answer-image-alt">[{props.alt}]</span> : null;
}

const COMPONENTS: Components = { a: AnswerLink, img: AnswerImage };

/** One block of markdown; memoised by its text. */
export const MarkdownBlock = memo(function MarkdownBlock(props: { text: string }) {
  return renderAnswerMarkdown(props.text, COMPONENTS);
});

type GroupProps = { blocks: readonly string[]; from: number; to: number; epoch: number };

/** Whether two block lists hold the same text in [from, to). */
function sameRange(a: GroupProps, b: GroupProps): boolean {
  if (a.from !== b.from || a.to !== b.to) return false;
  if (a.epoch === b.epoch) return true;
  for (let i = a.from; i < a.to; i += 1) if (a.blocks[i] !== b.blocks[i]) return false;
  return true;
}

/**
 * A range of finished blocks in one wrapper that the browser skips while off screen
 * (`content-visibility`, answer-markdown.css): layout and paint stay flat as the answer grows. Within
 * one epoch the same range is the same text; after a rebase (DONE's final answer) the texts are
 * compared, so only a group whose text changed renders again, and in it only changed blocks.
 */
const BlockGroup = memo(function BlockGroup(props: GroupProps) {
  const items: ReactNode[] = [];
  for (let i = props.from; i < props.to; i += 1) {
    items.push(<MarkdownBlock key={i} text={props.blocks[i]} />);
  }
  return <div className="answer-group">{items}</div>;
}, sameRange);

/** The answer: finished blocks (each rendered once) and the open one (rendered per update). */
export function StreamingMarkdown(props: { state: BlocksState }) {
  const { blocks, tail, epoch } = props.state;
  const store = useContext(CitationContext);
  const groups: ReactNode[] = [];
  for (let from = 0; from < blocks.length; from += GROUP) {
    const to = Math.min(blocks.length, from + GROUP);
    groups.push(<BlockGroup key={from} blocks={blocks} from={from} to={to} epoch={epoch} />);
  }
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!plainClick(event) || !(event.target instanceof Element)) return;
    const marker = event.target.closest('a[data-cite]');
    const n = marker?.getAttribute('data-cite');
    if (n && store.open(n)) event.preventDefault();
  };
  return (
    // Clicks on the markers' links, delegated: keyboard activation of a link is a click too.
    <div className="answer-markdown" onClick={onClick}>
      {groups}
      {tail.trim() ? <MarkdownBlock key={`open-${blocks.length}`} text={tail} /> : null}
    </div>
  );
}
