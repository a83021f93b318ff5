import { fetchUrl, type FetchOptions } from './fetch';
import { FetchError } from './fetch-error';
import { looksLikeFeed, parseFeed } from './parse-feed';
import { discoverFeeds, looksLikeHtml, pageTitle, readablePage } from './website';

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
> & { now?: number };

/** Feeds named on a page that are tried before settling for its readable text. */
const MAX_CANDIDATES = 3;

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

/**
 * What an address a user wants to follow is: a feed, a page naming a feed (the feed is
 * followed), or a page with readable text (followed as a website). Anything else, or an
 * address that cannot be read, is `ok: false` with a message naming the problem.
 */
export async function probeUrl(raw: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const now = opts.now ?? Date.now();
  try {
    const page = await fetchUrl(withScheme(raw), { ...opts, what: 'answer' });
    if (page.status !== 'ok') return { ok: false, message: 'url could not be read' };
    if (looksLikeFeed(page.text)) {
      const feed = parseFeed(page.text, page.url, now);
      return { ok: true, kind: 'rss', feedUrl: page.url, siteUrl: feed.siteUrl, title: feed.title };
    }
    if (!looksLikeHtml(page.text, page.contentType)) {
      return { ok: false, message: 'url is not a feed or a web page' };
    }
    for (const candidate of discoverFeeds(page.text, page.url).slice(0, MAX_CANDIDATES)) {
      try {
        const res = await fetchUrl(candidate, { ...opts, what: 'feed' });
        if (res.status !== 'ok' || !looksLikeFeed(res.text)) continue;
        const feed = parseFeed(res.text, res.url, now);
        return {
          ok: true,
          kind: 'rss',
          feedUrl: res.url,
          siteUrl: page.url,
          title: feed.title ?? pageTitle(page.text),
        };
      } catch {
        // A broken feed link: try the next, then the page's own text.
      }
    }
    const doc = readablePage(page.text, page.url, now);
    return {
      ok: true,
      kind: 'website',
      feedUrl: page.url,
      siteUrl: page.url,
      title: pageTitle(page.text) ?? doc.title,
    };
  } catch (err) {
    if (err instanceof FetchError && err.code === 'parse' && /readable text/.test(err.message)) {
      return { ok: false, message: 'url is not a feed or a web page with readable text' };
    }
    return { ok: false, message: messageOf(err) };
  }
}
