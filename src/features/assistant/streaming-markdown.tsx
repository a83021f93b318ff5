import { useNavigate } from '@tanstack/react-router';
import {
  createContext,
  memo,
  useContext,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Citation } from '../../../contract/assistant';
import type { BlocksState } from './markdown-blocks';
import { answerUrl, appPath, citeNumber, remarkCitations } from './markdown-rules';

/**
 * A streamed answer rendered by blocks (ARCHITECTURE "The UI"): each finished block is one
 * memoised react-markdown render, keyed by its index, so it renders once; only the open block
 * renders on every update. Finished blocks are grouped (GROUP per group, memoised by range) so
 * an update also does not walk every block: its cost stays flat as the answer grows.
 */

/** Blocks per memoised group. */
const GROUP = 64;

/** What `[n]` markers open: the answer's citations, and how to show one. */
export type CitationLinks = {
  byId: ReadonlyMap<string, Citation>;
  /** The in-app address of a citation, or null when it makes no link. */
  hrefOf: (citation: Citation) => string | null;
  open: (citation: Citation) => void;
};

const NO_CITATIONS: CitationLinks = { byId: new Map(), hrefOf: () => null, open: () => {} };
export const CitationContext = createContext<CitationLinks>(NO_CITATIONS);

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** A `[n]` marker: a link to the cited passage when the citation makes one, else its number. */
function CitationMarker(props: { n: string }) {
  const links = useContext(CitationContext);
  const citation = links.byId.get(props.n);
  const href = citation ? links.hrefOf(citation) : null;
  if (!citation || !href) return <sup className="cite-marker">[{props.n}]</sup>;
  return (
    <sup className="cite-marker">
      <a
        href={href}
        aria-label={`Source ${props.n}: ${citation.title_label}`}
        title={citation.title_label}
        onClick={(event) => {
          if (!plainClick(event)) return;
          event.preventDefault();
          links.open(citation);
        }}
      >
        [{props.n}]
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
const REMARK = [remarkGfm, remarkCitations];

/** One block of markdown; memoised by its text. */
export const MarkdownBlock = memo(function MarkdownBlock(props: { text: string }) {
  return (
    <Markdown remarkPlugins={REMARK} components={COMPONENTS} urlTransform={answerUrl}>
      {props.text}
    </Markdown>
  );
});

type GroupProps = { blocks: readonly string[]; from: number; to: number; epoch: number };

/** A range of finished blocks: within one epoch the same range is the same text. */
const BlockGroup = memo(
  function BlockGroup(props: GroupProps) {
    const items: ReactNode[] = [];
    for (let i = props.from; i < props.to; i += 1) {
      items.push(<MarkdownBlock key={i} text={props.blocks[i]} />);
    }
    return <>{items}</>;
  },
  (a, b) => a.from === b.from && a.to === b.to && a.epoch === b.epoch,
);

/** The answer: finished blocks (each rendered once) and the open one (rendered per update). */
export function StreamingMarkdown(props: { state: BlocksState }) {
  const { blocks, tail, epoch } = props.state;
  const groups: ReactNode[] = [];
  for (let from = 0; from < blocks.length; from += GROUP) {
    const to = Math.min(blocks.length, from + GROUP);
    groups.push(<BlockGroup key={from} blocks={blocks} from={from} to={to} epoch={epoch} />);
  }
  return (
    <div className="answer-markdown">
      {groups}
      {tail.trim() ? <MarkdownBlock key={`open-${blocks.length}`} text={tail} /> : null}
    </div>
  );
}
