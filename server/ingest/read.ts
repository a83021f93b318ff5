import type { CategoryTab, Market } from '../../contract/documents';
import type { SourceKind } from '../../contract/sources';
import type { IncomingDocument } from '../documents';
import { storableDocument } from './clean-text';
import { decodeBody } from './decode';
import { fetchUrl, type FetchOptions } from './fetch';
import { FetchError } from './fetch-error';
import { parseFilings } from './filings';
import { feedBatches, looksLikeFeed, openFeedReaderYielding } from './parse-feed';
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
      /**
       * The documents, a batch at a time as they are read (a long feed is read a piece at a
       * time: feed-split.ts), each field storable (clean-text.ts). A fault found on the way
       * (a malformed piece) is thrown by the iteration.
       */
      batches: AsyncIterable<IncomingDocument[]>;
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

async function* once(items: IncomingDocument[]): AsyncGenerator<IncomingDocument[]> {
  yield items;
}

/** The first bytes of an answer as text: enough to tell a feed by its root element. */
const headOf = (page: Fetched) => decodeBody(page.body.subarray(0, 4096), page.contentType);

/** A feed, read from its bytes a piece at a time (opened: its layout and channel checked). */
const feedOf = async (page: Fetched, now: number) =>
  feedBatches(
    await openFeedReaderYielding({ body: page.body, contentType: page.contentType }, page.url, now),
  );

const asFeed = async (page: Fetched, now: number): Promise<AsyncIterable<IncomingDocument[]>> => {
  if (!looksLikeFeed(headOf(page))) {
    throw new FetchError('parse', 'the address did not answer with an RSS or Atom feed');
  }
  return feedOf(page, now);
};

/** A page: its own feed, the first feed it names that opens, else its readable text. */
const asWebsite = async (
  page: Fetched,
  ctx: ReadContext,
): Promise<AsyncIterable<IncomingDocument[]>> => {
  if (looksLikeFeed(headOf(page))) return feedOf(page, ctx.now);
  if (!looksLikeHtml(page.text, page.contentType)) {
    throw new FetchError('parse', 'the address is not a feed or a web page');
  }
  for (const candidate of discoverFeeds(page.text, page.url).slice(0, 3)) {
    const res = await fetchUrl(candidate, { ...ctx.fetch, what: 'feed' }).catch(() => null);
    if (res?.status === 'ok' && looksLikeFeed(headOf(res))) {
      try {
        return await feedOf(res, ctx.now);
      } catch {
        // a broken feed: try the next, then the page's own text
      }
    }
  }
  return once([readablePage(page.text, page.url, ctx.now)]);
};

/** Each batch's documents with their fields storable, and filings typed as such. */
async function* storable(
  batches: AsyncIterable<IncomingDocument[]>,
  filed: Pick<IncomingDocument, 'category_tab' | 'market'> | null,
): AsyncGenerator<IncomingDocument[]> {
  for await (const batch of batches) {
    yield batch.map((item) => storableDocument(filed ? { ...item, ...filed } : item));
  }
}

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
  const batches =
    isWebsite || parser === 'website'
      ? await asWebsite(res, ctx)
      : parser === 'feed'
        ? await asFeed(res, ctx.now)
        : once(parseFilings(parser, res.text, res.url, preset?.market ?? 'us_capital_markets'));
  const market = preset?.market ?? source.market;
  return {
    status: 'ok',
    batches: storable(
      batches,
      source.kind === 'filings' ? { category_tab: 'exchanges' as const, market } : null,
    ),
    etag: res.etag,
    lastModified: res.lastModified,
    baseUrl: res.url,
  };
}
