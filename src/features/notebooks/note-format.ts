import {
  NOTE_LIMITS,
  NOTE_NAME_MAX,
  safeNoteHref,
  type NoteBlock,
  type NoteDocument,
  type NoteLeaf,
} from '../../../contract/notebooks';

/**
 * Notes made from what the user reads: an assistant answer (its markdown as blocks, each `[n]`
 * marker a link to the cited passage, and a "Sources" list of the citations) and a document
 * (its title linked to the document, then the snipped text).
 */

/** A cited source as the note keeps it: its number, its label and where its passage opens. */
export type NoteCitation = { id: string; label: string; href: string | null };

const MARKER = /\[(\d{1,4})\]/g;
const LINK = /\[([^\]\n]+)\]\(([^)\s]+)\)/g;

const cut = (text: string) => text.slice(0, NOTE_LIMITS.leafChars);

/** One line of markdown as leaves: `[text](url)` and `[n]` markers become links, marks dropped. */
function inline(line: string, cites: ReadonlyMap<string, NoteCitation>): NoteLeaf[] {
  const leaves: NoteLeaf[] = [];
  const plain = (text: string) => {
    const bare = text.replace(/\*\*|__|`/g, '');
    let at = 0;
    for (const match of bare.matchAll(MARKER)) {
      const href = cites.get(match[1])?.href ?? null;
      if (!href) continue;
      if (match.index > at) leaves.push({ text: cut(bare.slice(at, match.index)) });
      leaves.push({ text: match[0], href });
      at = match.index + match[0].length;
    }
    if (at < bare.length) leaves.push({ text: cut(bare.slice(at)) });
  };
  let at = 0;
  for (const match of line.matchAll(LINK)) {
    if (match.index > at) plain(line.slice(at, match.index));
    const href = safeNoteHref(match[2]);
    leaves.push(href ? { text: cut(match[1]), href } : { text: cut(match[1]) });
    at = match.index + match[0].length;
  }
  if (at < line.length) plain(line.slice(at));
  return leaves.filter((leaf) => leaf.text.length > 0).slice(0, NOTE_LIMITS.leaves);
}

const block = (type: NoteBlock['type'], children: NoteLeaf[]): NoteBlock | null =>
  children.length ? { type, children } : null;

/** An answer's markdown and its citations as a note document, within the note limits. */
export function answerToNoteDocument(
  markdown: string,
  citations: readonly NoteCitation[],
): NoteDocument {
  const cites = new Map(citations.map((c) => [c.id, c]));
  const blocks: NoteBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) {
      const made = block('paragraph', inline(paragraph.join(' '), cites));
      if (made) blocks.push(made);
    }
    paragraph = [];
  };
  let fence = false;
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (line.trim().startsWith('```')) {
      flush();
      fence = !fence;
      continue;
    }
    if (fence) {
      if (line) blocks.push({ type: 'code', children: [{ text: cut(line) }] });
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    const quote = /^>\s?(.*)$/.exec(line);
    if (!line.trim()) flush();
    else if (heading || item || quote) {
      flush();
      const type = heading ? 'heading' : item ? 'list-item' : 'quote';
      const made = block(type, inline((heading ?? item ?? quote)![1], cites));
      if (made) blocks.push(made);
    } else paragraph.push(line.trim());
  }
  flush();
  const sources = citations.filter((c) => c.href);
  if (sources.length) {
    blocks.push({ type: 'heading', children: [{ text: 'Sources' }] });
    for (const c of sources) {
      blocks.push({
        type: 'list-item',
        children: [{ text: cut(`[${c.id}] ${c.label}`), href: c.href! }],
      });
    }
  }
  return fitted(blocks);
}

/** A document as a note: its title linked to it, then the snipped (or its shown) text. */
export function snipToNoteDocument(doc: {
  title: string;
  href: string | null;
  text: string;
}): NoteDocument {
  const title: NoteLeaf = doc.href
    ? { text: cut(doc.title), href: doc.href }
    : { text: cut(doc.title) };
  const blocks: NoteBlock[] = [{ type: 'heading', children: [title] }];
  for (const p of doc.text.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const text = p.replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ type: 'paragraph', children: [{ text: cut(text) }] });
  }
  return fitted(blocks);
}

/** At most the blocks and characters a note holds (the end goes first). */
function fitted(blocks: NoteBlock[]): NoteDocument {
  const out: NoteBlock[] = [];
  let chars = 0;
  for (const b of blocks.slice(0, NOTE_LIMITS.blocks)) {
    const size = b.children.reduce((n, leaf) => n + leaf.text.length, 0);
    if (chars + size > NOTE_LIMITS.chars) break;
    chars += size;
    out.push(b);
  }
  return out;
}

/** A note's name from a text: its first words, at most NOTE_NAME_MAX characters. */
export function noteNameFrom(text: string): string {
  const line = text
    .replace(MARKER, '')
    .replace(/[#*_`>[\]]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
    .trim();
  if (line.length <= 80) return line || 'Untitled note';
  const cutAt = line.lastIndexOf(' ', 80);
  return `${line.slice(0, cutAt > 40 ? cutAt : 80)}…`.slice(0, NOTE_NAME_MAX);
}
