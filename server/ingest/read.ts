import type { CategoryTab, Market } from '../../contract/documents';
import type { SourceKind } from '../../contract/sources';
import type { IncomingDocument } from '../documents/store';
import { fetchUrl, type FetchOptions } from './fetch';
import { FetchError } from './fetch-error';
import { parseFilings } from './filings';
import { looksLikeFeed, parseFeedYielding } from './parse-feed';
import { expandPresetUrl, filingsPreset } from './presets';
import { discoverFeeds, looksLikeHtml, readablePage } from './website';

/** What the runner knows of a source when it reads it. */
export type SourceToRead = {
  id: string;
  key: string;
  kind: SourceKind;
  url: string | null;
  site_url: string | null;
  category_tab: CategoryTab;
  market: Market | null;
};

export type ReadOutcome =
  | { status: 'not_modified' }
  | {
      status: 'ok';
      items: IncomingDocument[];
      etag: string | null;
      lastModified: string | null;
      /** What relative links in the items resolve against. */
      baseUrl: string;
    };

export type ReadContext = {
  now: number;
  etag: string | null;
  lastModified: string | null;
  fetch: FetchOptions;
  /**
   * When set, a filings preset with key K is read from `${presetBaseUrl}/${K}` instead of its
   * public feed (PRESET_BASE_URL: recorded responses for tests and offline demos).
   */
  presetBaseUrl?: string | null;
};

type Fetched = Extract<Awaited<ReturnType<typeof fetchUrl>>, { status: 'ok' }>;

const asFeed = async (page: Fetched, now: number): Promise<IncomingDocument[]> => {
  if (!looksLikeFeed(page.text)) {
    throw new FetchError('parse', 'the address did not answer with an RSS or Atom feed');
  }
  return (await parseFeedYielding(page.text, page.url, now)).items;
};

/** A page: its own feed, the first feed it names that reads, else its readable text. */
const asWebsite = async (page: Fetched, ctx: ReadContext): Promise<IncomingDocument[]> => {
  if (looksLikeFeed(page.text))
    return (await parseFeedYielding(page.text, page.url, ctx.now)).items;
  if (!looksLikeHtml(page.text, page.contentType)) {
    throw new FetchError('parse', 'the address is not a feed or a web page');
  }
  for (const candidate of discoverFeeds(page.text, page.url).slice(0, 3)) {
    const res = await fetchUrl(candidate, { ...ctx.fetch, what: 'feed' }).catch(() => null);
    if (res?.status === 'ok' && looksLikeFeed(res.text)) {
      try {
        return (await parseFeedYielding(res.text, res.url, ctx.now)).items;
      } catch {
        // a broken feed: try the next, then the page's own text
      }
    }
  }
  return [readablePage(page.text, page.url, ctx.now)];
};

/**
 * Fetches a source (conditionally, with the job's validators) and turns the answer into
 * documents by the source's kind: rss (a feed), website (website.ts), filings (the preset's
 * parser, with its URL's dates filled in). Throws FetchError with the user's words.
 */
export async function readSource(source: SourceToRead, ctx: ReadContext): Promise<ReadOutcome> {
  const preset = source.kind === 'filings' ? filingsPreset(source.key) : undefined;
  const address =
    preset && ctx.presetBaseUrl
      ? `${ctx.presetBaseUrl.replace(/\/+$/, '')}/${encodeURIComponent(preset.key)}`
      : source.url;
  if (!address) throw new FetchError('invalid_url', 'the source has no address to read');
  const url = preset ? expandPresetUrl(address, ctx.now, preset.utcOffsetMinutes) : address;
  const isWebsite = source.kind === 'website' || preset?.parser === 'website';
  const res = await fetchUrl(url, {
    ...ctx.fetch,
    etag: ctx.etag,
    lastModified: ctx.lastModified,
    headers: { ...ctx.fetch.headers, ...preset?.headers },
    what: isWebsite ? 'page' : 'feed',
  });
  if (res.status === 'not_modified') return { status: 'not_modified' };
  const parser = preset?.parser ?? 'feed';
  const items =
    isWebsite || parser === 'website'
      ? await asWebsite(res, ctx)
      : parser === 'feed'
        ? await asFeed(res, ctx.now)
        : parseFilings(parser, res.text, res.url, preset?.market ?? 'us_capital_markets');
  const market = preset?.market ?? source.market;
  const filed =
    source.kind === 'filings'
      ? items.map((item) => ({ ...item, category_tab: 'exchanges' as const, market }))
      : items;
  return {
    status: 'ok',
    items: filed,
    etag: res.etag,
    lastModified: res.lastModified,
    baseUrl: res.url,
  };
}
