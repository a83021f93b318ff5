import type { Market } from '../../../contract/documents';
import { absoluteUrl, type IncomingDocument } from '../../documents';
import { FetchError } from '../fetch-error';
import { dedupeKey, textOf } from '../parse-feed';
import { listAt, nodeAt, parseXml, textAt } from './xml';

/**
 * SEBI's RSS (sebirss.xml): RSS 2.0 items with title, link, description and a pubDate written
 * "03 Mar, 2025 +0530" (not RFC 822). What a card needs is in the link's path (the section:
 * /legal/circulars/, /enforcement/orders/, /filings/public-issues/ ...) and the title ("...
 * in respect of <company>", "<company> - DRHP").
 */

const SECTIONS: Array<[RegExp, string]> = [
  [/\/legal\/master-circulars\//, 'Master Circulars'],
  [/\/legal\/circulars\//, 'Circulars'],
  [/\/legal\/regulations\//, 'Regulations'],
  [/\/legal\/(?:guidelines|general-orders)\//, 'Guidelines'],
  [/\/enforcement\/orders\//, 'Orders'],
  [/\/enforcement\//, 'Enforcement'],
  [/\/media(?:-and-notifications)?\/press-releases\//, 'Press Releases'],
  [/\/filings\/public-issues\//, 'Public Issues'],
  [/\/filings\//, 'Filings'],
  [/\/reports(?:-and-statistics)?\//, 'Reports'],
];

const MONTHS = 'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ');

/** "03 Mar, 2025 +0530" (SEBI), else whatever Date understands. */
export const sebiUnix = (text: string | null): number | null => {
  if (!text) return null;
  const m =
    /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*,?\s+(\d{4})(?:\s+(\d\d):(\d\d)(?::(\d\d))?)?\s*([+-]\d{4})?/.exec(
      text.trim(),
    );
  if (m) {
    const month = MONTHS.indexOf(m[2].toLowerCase());
    const zone = m[7] ?? '+0530';
    const offset =
      (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3)));
    if (month >= 0) {
      const utc = Date.UTC(
        Number(m[3]),
        month,
        Number(m[1]),
        Number(m[4] ?? 0),
        Number(m[5] ?? 0),
        Number(m[6] ?? 0),
      );
      return Math.floor((utc - offset * 60_000) / 1000);
    }
  }
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
};

const companyOf = (title: string): string | null => {
  const inRespect =
    /in (?:respect|the matter) of (?:M\/s\.?\s*)?(.+?(?:Limited|Ltd\.?|LLP|Private Limited))/i.exec(
      title,
    );
  if (inRespect) return inRespect[1].trim();
  const issue = /^(.+?(?:Limited|Ltd\.?))\s*[-–:]\s*(?:DRHP|RHP|Draft|Offer)/i.exec(title);
  return issue ? issue[1].trim() : null;
};

const orderKindOf = (title: string): string | null =>
  /^(Adjudication|Settlement|Final|Interim|Confirmatory|Recovery|Exemption) order/i.exec(
    title,
  )?.[0] ?? null;

export const parseSebiRss = (text: string, feedUrl: string, market: Market): IncomingDocument[] => {
  const channel = nodeAt(nodeAt(parseXml(text), 'rss'), 'channel');
  if (!channel) throw new FetchError('parse', "the answer is not SEBI's RSS feed");
  return listAt(channel, 'item').flatMap((item): IncomingDocument[] => {
    const title = textAt(item, 'title');
    const link = absoluteUrl(textAt(item, 'link'), feedUrl);
    if (!title) return [];
    const description = textAt(item, 'description');
    const plain = textOf(description);
    const section = link
      ? (SECTIONS.find(([re]) => re.test(new URL(link).pathname))?.[1] ?? null)
      : null;
    const kind = orderKindOf(title);
    return [
      {
        dedupe_key: dedupeKey(textAt(item, 'guid'), link, () => `${title}\n${plain}`),
        title,
        url: link,
        unix: sebiUnix(textAt(item, 'pubDate')),
        html: description,
        text: plain || null,
        company_name: companyOf(title),
        security_code: null,
        security_id: null,
        category: section,
        secondary_category: kind,
        categories: [section, kind].filter((c): c is string => !!c),
        category_tab: 'exchanges',
        market,
        mime_type: 'text/html',
      },
    ];
  });
};
