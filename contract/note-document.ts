import { z } from 'zod';
import { LIMITS, text } from './define';

/**
 * A note's snip document (contract/notebooks.ts holds the notebooks and notes that carry it):
 * rich-text nodes, blocks of leaves, bounded in count and size; the link rule (`safeNoteHref`)
 * the server applies on the way in and out and the UI before rendering; its text and snippet.
 * Rich text is data, never HTML.
 */

/** Blocks of one note document, leaves of one block, characters of one leaf and of them all. */
export const NOTE_LIMITS = { blocks: 500, leaves: 200, leafChars: 10_000, chars: 200_000 } as const;
/** A note's snippet: this many characters, then "..." (002 §9). */
export const NOTE_SNIPPET_CHARS = 1000;

/**
 * A link a note may hold, or null: an absolute http, https or mailto address, or a path inside
 * the app (`/preview/...`, `/notebooks/...`, `/feeds/...`: a citation's passage, another note,
 * a feed). Anything else (javascript:, data:, protocol-relative //host) is dropped.
 */
export const safeNoteHref = (href: string): string | null => {
  const value = href.trim();
  if (value.length === 0 || value.length > LIMITS.path) return null;
  if (value.startsWith('/')) {
    if (value.startsWith('//') || value.includes('\\')) return null;
    return /^\/(preview|notebooks|feeds|search|needlbox|apps|channels)(\/|\?|$)/.test(value)
      ? value
      : null;
  }
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
};

/** One run of text with its marks; `href` makes it a link. */
export const NoteLeaf = z
  .object({
    text: text('text', NOTE_LIMITS.leafChars),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    code: z.boolean().optional(),
    href: text('href', LIMITS.path).optional(),
  })
  .strict();
export type NoteLeaf = z.infer<typeof NoteLeaf>;

export const NOTE_BLOCK_TYPES = ['paragraph', 'heading', 'quote', 'list-item', 'code'] as const;
export const NoteBlock = z
  .object({
    type: z.enum(NOTE_BLOCK_TYPES, {
      message: `type must be one of ${NOTE_BLOCK_TYPES.join(', ')}`,
    }),
    children: z
      .array(NoteLeaf)
      .min(1, { message: 'a block holds at least one leaf' })
      .max(NOTE_LIMITS.leaves, { message: `a block holds at most ${NOTE_LIMITS.leaves} leaves` }),
  })
  .strict();
export type NoteBlock = z.infer<typeof NoteBlock>;

/** A note's snip document: blocks of leaves, bounded in count and size. */
export const NoteDocument = z
  .array(NoteBlock)
  .max(NOTE_LIMITS.blocks, { message: `document holds at most ${NOTE_LIMITS.blocks} blocks` })
  .superRefine((blocks, ctx) => {
    let chars = 0;
    for (const block of blocks) for (const leaf of block.children) chars += leaf.text.length;
    if (chars > NOTE_LIMITS.chars) {
      ctx.addIssue({
        code: 'custom',
        message: `document holds at most ${NOTE_LIMITS.chars} characters`,
      });
    }
  });
export type NoteDocument = z.infer<typeof NoteDocument>;

/**
 * The document as a request carries it: the spec's "JSON string of rich-text nodes", or the
 * nodes themselves.
 */
export const NoteDocumentInput = z.preprocess((value, ctx) => {
  if (typeof value !== 'string') return value;
  if (value.length > NOTE_LIMITS.chars * 4) {
    ctx.addIssue({ code: 'custom', message: 'document is too large' });
    return z.NEVER;
  }
  try {
    return JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'document must be a JSON array of rich-text nodes' });
    return z.NEVER;
  }
}, NoteDocument);

/**
 * The document with every link made safe (an unsafe `href` dropped, its text kept): applied
 * by the server on the way in and on the way out, and by the UI before rendering.
 */
export const sanitizeNoteDocument = (document: NoteDocument): NoteDocument =>
  document.map((block) => ({
    type: block.type,
    children: block.children.map((leaf) => {
      const { href, ...rest } = leaf;
      const safe = href === undefined ? null : safeNoteHref(href);
      return safe ? { ...rest, href: safe } : rest;
    }),
  }));

/** The note's text, blocks on their own lines. */
export const noteText = (document: NoteDocument): string =>
  document.map((block) => block.children.map((leaf) => leaf.text).join('')).join('\n\n');

/** The note's snippet (002 §9): its text cut at NOTE_SNIPPET_CHARS characters plus "...". */
export const noteSnippet = (document: NoteDocument): string => {
  const all = noteText(document).replace(/\s+/g, ' ').trim();
  return all.length > NOTE_SNIPPET_CHARS ? `${all.slice(0, NOTE_SNIPPET_CHARS)}...` : all;
};

/**
 * Plain text (paragraphs apart by blank lines) as a document, keeping each block of `previous`
 * whose text did not change (its marks and links: a cited source stays a link when the text
 * around it is edited).
 */
export const textToNoteDocument = (value: string, previous: NoteDocument = []): NoteDocument => {
  const kept = new Map<string, NoteBlock>();
  for (const block of previous) {
    const key = block.children.map((l) => l.text).join('');
    if (!kept.has(key)) kept.set(key, block);
  }
  return value
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.replace(/^\n+|\n+$/g, ''))
    .filter((p) => p.trim().length > 0)
    .map((p) => kept.get(p) ?? { type: 'paragraph', children: [{ text: p }] });
};
