import createDOMPurify, { type DOMPurify } from 'dompurify';
import { isSafeImage } from '../../../contract/documents';
import { originalLink } from './card-rules';

/**
 * A document's HTML is sanitised by the server on the way in; the page sanitises it again
 * before it reaches the DOM (defence in depth: a mirror written by an older build, a bug in the
 * server's rules). DOMPurify in the page's own window: no scripts, event handlers, styles,
 * forms or frames; links only http, https and mailto, opening outside the app; images only
 * from https (002 §5).
 */
const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame'],
  FORBID_ATTR: ['style', 'srcset', 'class', 'id'],
  ALLOW_DATA_ATTR: false,
};

let purifier: DOMPurify | null = null;

function createPurifier(): DOMPurify {
  const made = createDOMPurify(window);
  made.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (originalLink(href) !== null || /^mailto:/i.test(href)) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      } else {
        node.removeAttribute('href');
      }
    }
    if (node.tagName === 'IMG') {
      if (!isSafeImage(node.getAttribute('src'))) {
        node.remove();
        return;
      }
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
    }
  });
  return made;
}

/** Safe HTML to put in the page. */
export function sanitizeDocumentHtml(html: string): string {
  purifier ??= createPurifier();
  return purifier.sanitize(html, CONFIG);
}

/** Search highlights (contract/search.ts): text with `<em>` marks and nothing else. */
const HIGHLIGHT_CONFIG = { ALLOWED_TAGS: ['em'], ALLOWED_ATTR: [], ALLOW_DATA_ATTR: false };

/** A search highlight made safe: every tag but `<em>` removed (its text kept), no attributes. */
export function sanitizeHighlightHtml(html: string): string {
  purifier ??= createPurifier();
  return purifier.sanitize(html, HIGHLIGHT_CONFIG);
}
