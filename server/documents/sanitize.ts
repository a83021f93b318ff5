import { compile } from 'html-to-text';
import sanitize from 'sanitize-html';

/**
 * HTML from the outside world, made safe to show (sanitize-html, an allow-list parser, never
 * regexes): no scripts, styles, iframes, forms or event handlers; links only http, https and
 * mailto; images only https. Relative addresses are resolved against the page or feed they came
 * from (`baseUrl`), and dropped when there is none.
 */

const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];
const WEB_SCHEMES = ['http:', 'https:'];

/**
 * An address made absolute against `baseUrl`, or null when it is not one we keep (by default
 * http and https only): the one rule for links of feeds, pages, filings and stored HTML.
 */
export function absoluteUrl(
  value: string | null | undefined,
  baseUrl: string | null | undefined,
  schemes: readonly string[] = WEB_SCHEMES,
): string | null {
  const raw = value?.trim();
  if (!raw) return null;
  try {
    const url = baseUrl ? new URL(raw, baseUrl) : new URL(raw);
    return schemes.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const ALLOWED_TAGS = [
  ...sanitize.defaults.allowedTags.filter((t) => t !== 'style'),
  'img',
  'figure',
  'figcaption',
  'picture',
];

const optionsFor = (baseUrl: string | null | undefined): sanitize.IOptions => ({
  allowedTags: ALLOWED_TAGS,
  disallowedTagsMode: 'discard',
  // Dropped with what they hold, not just their tags.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'template',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => {
      const href = absoluteUrl(attribs.href, baseUrl, LINK_SCHEMES);
      const { href: _href, rel: _rel, ...rest } = attribs;
      // Links leave the app: no opener, no referrer.
      return {
        tagName,
        attribs: href ? { ...rest, href, rel: 'noopener noreferrer nofollow' } : rest,
      };
    },
    img: (tagName, attribs) => {
      const src = absoluteUrl(attribs.src, baseUrl, ['https:']);
      const { src: _dropped, ...rest } = attribs;
      return { tagName, attribs: src ? { ...rest, src } : rest };
    },
  },
  // An image with no https address left shows nothing: drop the element.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
});

/** Safe HTML for a document's preview. */
export function sanitizeHtml(html: string, baseUrl?: string | null): string {
  return sanitize(html, optionsFor(baseUrl));
}

// Compiled once: `convert` compiles its selectors on every call (most of a stored document's
// cost, and ~0.8 MB of garbage each).
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
});

/** The readable text of (sanitised) HTML: what snippets, search and the assistant read. */
export function htmlToText(html: string): string {
  if (!html) return '';
  return toText(html)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
