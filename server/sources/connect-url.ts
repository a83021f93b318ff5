import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { FollowUrlBody, Source } from '../../contract/sources';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { probeUrl } from '../ingest';
import { iso } from '../time';
import { followSource } from './follow';

/**
 * Following a feed or a website by its address (POST /connect/rss, /connect/{app}/custom): the
 * address is checked here (a 400 naming what is wrong). An address the user already has a
 * source for is followed again as it is: nothing is fetched. Otherwise ingestion's probe reads
 * the first bytes of the answer (its host public and reachable? a feed, a page naming one, or
 * another page?) before anything is written; the feed itself is read by the ingestion runner,
 * whose job the follow makes due at once, so the request answers in the time of those first
 * bytes whatever the feed's size. The source made is the user's own: private, never shown to
 * anyone else; another user following the same address gets a row of their own.
 */

const bad = (message: string) =>
  new ApiError(400, 'bad_request', message, [{ path: 'url', message }]);

/** The address as typed, checked: http or https, a host, no credentials. */
export function checkedUrl(raw: string): string {
  const typed = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw bad('url is not a valid address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw bad(`url must be an http or https address, not ${url.protocol.slice(0, -1)}`);
  }
  if (!url.hostname) throw bad('url has no host');
  if (url.username || url.password) throw bad('url must not carry a user name or password');
  return url.href;
}

/**
 * Outbound fetches refuse private and loopback addresses unless FETCH_ALLOW_PRIVATE=1 (tests
 * and local development), the same switch the ingestion runner reads.
 */
const allowPrivate = () => process.env.FETCH_ALLOW_PRIVATE === '1';

export type Probed = {
  kind: 'rss' | 'website';
  feedUrl: string;
  siteUrl: string | null;
  title: string | null;
};

/** Reads the first bytes at the address (slow: call before the request's transaction). */
export async function probe(url: string): Promise<Probed> {
  const result = await probeUrl(url, { allowPrivate: allowPrivate() });
  if (!result.ok) throw bad(result.message);
  return result;
}

/**
 * The user's own source already at this address (the feed's, or the page it was found on),
 * if any: following it again reads nothing.
 */
export async function ownSourceAt(db: Db, userId: string, url: string): Promise<string | null> {
  const row = await db
    .selectFrom('sources')
    .select('id')
    .where('owner_user_id', '=', userId)
    .where((eb) => eb.or([eb('url', '=', url), eb('site_url', '=', url)]))
    .orderBy(sql`CASE WHEN url = ${url} THEN 0 ELSE 1 END`)
    .orderBy('created_at')
    .executeTakeFirst();
  return row?.id ?? null;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
};

/** Creates (or finds) the user's own source for a probed address and follows it. */
export async function followProbed(
  db: Db,
  userId: string,
  probed: Probed,
  body: FollowUrlBody,
  now: number,
): Promise<Source> {
  const mine = await db
    .selectFrom('sources')
    .select('id')
    .where('owner_user_id', '=', userId)
    .where('url', '=', probed.feedUrl)
    .executeTakeFirst();
  let sourceId = mine?.id;
  if (!sourceId) {
    sourceId = randomBytes(8).toString('hex');
    await db
      .insertInto('sources')
      .values({
        id: sourceId,
        key: `${probed.kind === 'rss' ? 'rss' : 'web'}_${sourceId}`,
        kind: probed.kind,
        label: (body.label || probed.title || hostOf(probed.siteUrl ?? probed.feedUrl)).slice(
          0,
          200,
        ),
        url: probed.feedUrl,
        site_url: probed.siteUrl,
        category: 'rss_news',
        category_tab: 'rss_news',
        market: null,
        grp: null,
        thumbnail: null,
        flag: 'rss_news',
        public: 0,
        owner_user_id: userId,
        created_at: iso(now),
      })
      .execute();
  }
  return followSource(db, userId, sourceId, now);
}
