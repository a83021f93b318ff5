import { originalLink } from '../documents';

/**
 * What an answer's markdown may turn into (001 §2 "Citation links and preview"). Answers come
 * from a server that quotes documents and, with a model, writes free text: none of it is
 * trusted. Raw HTML stays text (answer-processor.ts turns it into text nodes),
 * images are not loaded (an answer must not make the browser fetch addresses), and a link keeps
 * its address only when it is http(s), an app page the answer may point to (/preview, /redirect)
 * or a citation marker.
 */

/** The href a `[n]` marker becomes (markdown link nodes made by remarkCitations). */
export const CITE_PREFIX = '#cite-';
const APP_PATHS = ['/preview/', '/redirect'];

/** An app-relative address of the kinds answers carry, or null. */
export function appPath(url: string): string | null {
  if (!url.startsWith('/') || url.startsWith('//') || url.includes('\\')) return null;
  return APP_PATHS.some((base) => url.startsWith(base)) ? url : null;
}

/** Every URL attribute of an answer passes here: anything but the allowed kinds loses it. */
export function answerUrl(url: string): string | null {
  if (url.startsWith(CITE_PREFIX) && /^\d{1,4}$/.test(url.slice(CITE_PREFIX.length))) return url;
  return appPath(url) ?? originalLink(url);
}

/** The citation number of a marker href, or null. */
export function citeNumber(href: string | undefined): string | null {
  if (!href?.startsWith(CITE_PREFIX)) return null;
  return href.slice(CITE_PREFIX.length);
}

// Minimal mdast shapes: only what the plugin reads and writes.
type MdText = { type: 'text'; value: string };
type MdLink = { type: 'link'; url: string; title: null; children: MdText[] };
type MdNode = { type: string; value?: string; children?: MdNode[] };

const MARKER = /\[(\d{1,4})\]/g;
/** Inside these, `[n]` is what the author wrote, not a marker. */
const KEEP = new Set(['link', 'linkReference', 'inlineCode', 'code', 'definition']);

function splitMarkers(value: string): Array<MdText | MdLink> | null {
  const parts: Array<MdText | MdLink> = [];
  let last = 0;
  for (const match of value.matchAll(MARKER)) {
    if (match.index > last) parts.push({ type: 'text', value: value.slice(last, match.index) });
    parts.push({
      type: 'link',
      url: `${CITE_PREFIX}${match[1]}`,
      title: null,
      children: [{ type: 'text', value: match[1] }],
    });
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return null;
  if (last < value.length) parts.push({ type: 'text', value: value.slice(last) });
  return parts;
}

function walk(node: MdNode) {
  const children = node.children;
  if (!children) return;
  for (let i = 0; i < children.length; i += 1) {
    const child = children[i];
    if (child.type === 'text' && typeof child.value === 'string') {
      const parts = splitMarkers(child.value);
      if (parts) {
        children.splice(i, 1, ...parts);
        i += parts.length - 1;
      }
    } else if (!KEEP.has(child.type)) {
      walk(child);
    }
  }
}

/** A remark plugin: the answer's `[n]` markers become links to citation n. */
export function remarkCitations() {
  return (tree: MdNode) => walk(tree);
}
