import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { absoluteUrl, type IncomingDocument } from '../documents';
import { FetchError } from './fetch-error';
import { sha256 } from './parse-feed';

/**
 * Following a website by its address: a page that is itself a feed is read as one; an HTML
 * page names its feeds with `<link rel="alternate" type="application/rss+xml">` (or atom),
 * which are read instead; a page without one is read as one document of its readable text
 * (Readability over linkedom), keyed by address and content hash so that a page that changes
 * gives a new version, and one that does not gives nothing new.
 */

const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/feed+xml',
  'application/xml',
  'text/xml',
]);

export const looksLikeHtml = (text: string, contentType: string | null): boolean =>
  /html/i.test(contentType ?? '') ||
  /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype html|html|head|body)\b/i.test(text.slice(0, 2048));

/** The feeds an HTML page names (absolute, deduplicated, in page order). */
export const discoverFeeds = (html: string, pageUrl: string): string[] => {
  const { document } = parseHTML(html);
  const base = absoluteUrl(document.querySelector('base[href]')?.getAttribute('href'), pageUrl);
  const found: string[] = [];
  for (const link of document.querySelectorAll('link[href]')) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const type = (link.getAttribute('type') ?? '').toLowerCase().split(';')[0].trim();
    if (!rel.includes('alternate') || !FEED_TYPES.has(type)) continue;
    // Comment feeds of one post are not the site's feed.
    if (/comments?\s+feed/i.test(link.getAttribute('title') ?? '')) continue;
    const url = absoluteUrl(link.getAttribute('href'), base ?? pageUrl);
    if (url && !found.includes(url)) found.push(url);
  }
  return found;
};

/** The page's title (for a source label). */
export const pageTitle = (html: string): string | null => {
  const { document } = parseHTML(html);
  return document.querySelector('title')?.textContent?.trim() || null;
};

/** The readable text of a page as one document, or an error when it holds none. */
export const readablePage = (html: string, pageUrl: string, now: number): IncomingDocument => {
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  const text = article?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  if (!article || !text) {
    throw new FetchError('parse', 'the page has no feed and no readable text');
  }
  const title = article.title?.trim() || pageTitle(html);
  return {
    // One version per distinct text: the same text polled again is a duplicate.
    dedupe_key: `page:${pageUrl}#${sha256(text).slice(0, 32)}`,
    title: title || null,
    url: pageUrl,
    unix: Math.floor(now / 1000),
    html: article.content ?? null,
    text,
    thumbnail: null,
    categories: [],
    mime_type: 'text/html',
  };
};
