import { storableText } from './clean-text';
import { fetchUrl, type FetchOptions } from './fetch';
import { FetchError } from './fetch-error';
import { feedHead } from './feed-split';
import { looksLikeFeed, openFeedReader } from './parse-feed';
import { discoverFeeds, looksLikeHtml, pageTitle } from './website';

export type ProbeResult =
  | {
      ok: true;
      /** rss: a feed (given, or discovered on the page); website: the page's readable text. */
      kind: 'rss' | 'website';
      /** The address to read from now on (the feed, or the page). */
      feedUrl: string;
      siteUrl: string | null;
      title: string | null;
    }
  | { ok: false; message: string };

export type ProbeOptions = Pick<
  FetchOptions,
  'allowPrivate' | 'timeoutMs' | 'maxBytes' | 'userAgent' | 'signal'
>;

/** Feeds named on a page that are tried before settling for the page itself. */
const MAX_CANDIDATES = 3;

/**
 * How much of an answer is read to tell what it is: a feed's root element, title and link come
 * before its items; a page names its feeds in its head.
 */
export const PROBE_BYTES = 256 * 1024;

/** The 400 message for a fetch that failed, naming the field (`url`). */
const messageOf = (err: unknown): string => {
  if (!(err instanceof FetchError)) return 'url could not be read';
  switch (err.code) {
    case 'invalid_url':
      return 'url is not a valid address';
    case 'unsupported_scheme':
      return 'url must be an http or https address';
    case 'private_address':
      return `url is not allowed: ${err.message}`;
    case 'unreachable':
      return `url could not be reached: ${err.reason ?? err.message}`;
    case 'parse':
      return `url is not a readable feed: ${err.message}`;
    default:
      return `url could not be reached: ${err.message}`;
  }
};

/** An address typed without a scheme ("example.com/feed") is read as https. */
const withScheme = (raw: string): string => {
  const trimmed = raw.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
};

/** A feed's title and site from its first bytes (feed-split.ts), null where they do not read. */
const headOfFeed = (
  text: string,
  url: string,
): { title: string | null; siteUrl: string | null } => {
  try {
    const { meta } = openFeedReader(feedHead(text), url, Date.now());
    return { title: meta.title && storableText(meta.title), siteUrl: meta.siteUrl };
  } catch {
    return { title: null, siteUrl: null };
  }
};

/**
 * What an address a user wants to follow is, from the first bytes of its answer (PROBE_BYTES):
 * a feed (by its root element), a page naming a feed (the feed is followed, checked the same
 * way), or another web page (followed as a website). The address's form, its host's addresses
 * (public only), that it answers 2xx and what it answers are checked here; the feed itself is
 * read, stored and its faults reported by the runner (GET /source/status), so following a
 * 10 MB feed costs the request no more than its first bytes. Anything else, or an address that
 * cannot be read, is `ok: false` with a message naming the problem.
 */
export async function probeUrl(raw: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const head = { ...opts, headBytes: PROBE_BYTES };
  try {
    const page = await fetchUrl(withScheme(raw), { ...head, what: 'answer' });
    if (page.status !== 'ok') return { ok: false, message: 'url could not be read' };
    if (looksLikeFeed(page.text)) {
      return { ok: true, kind: 'rss', feedUrl: page.url, ...headOfFeed(page.text, page.url) };
    }
    if (!looksLikeHtml(page.text, page.contentType)) {
      return { ok: false, message: 'url is not a feed or a web page' };
    }
    for (const candidate of discoverFeeds(page.text, page.url).slice(0, MAX_CANDIDATES)) {
      try {
        const res = await fetchUrl(candidate, { ...head, what: 'feed' });
        if (res.status !== 'ok' || !looksLikeFeed(res.text)) continue;
        const feed = headOfFeed(res.text, res.url);
        return {
          ok: true,
          kind: 'rss',
          feedUrl: res.url,
          siteUrl: page.url,
          title: feed.title ?? titleOfPage(page.text),
        };
      } catch {
        // A broken feed link: try the next, then the page itself.
      }
    }
    return {
      ok: true,
      kind: 'website',
      feedUrl: page.url,
      siteUrl: page.url,
      title: titleOfPage(page.text),
    };
  } catch (err) {
    return { ok: false, message: messageOf(err) };
  }
}

const titleOfPage = (html: string): string | null => {
  const title = pageTitle(html);
  return title && storableText(title);
};
