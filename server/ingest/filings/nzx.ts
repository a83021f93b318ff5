import type { Market } from '../../../contract/documents';
import { absoluteUrl, type IncomingDocument } from '../../documents';
import { FetchError } from '../fetch-error';
import { dedupeKey, textOf } from '../parse-feed';
import { listAt, nodeAt, parseXml, textAt, unixOfDate } from './xml';

/**
 * NZX market announcements (RSS 2.0): per item a title "<CODE> - <Issuer> - <headline>", the
 * announcement's page as link, its number as guid, and NZX's announcement type code as
 * category (GENERAL, MKTUPDTE, FLLYR ...), dated in New Zealand time with an offset.
 */

const TYPES: Record<string, string> = {
  GENERAL: 'General',
  MKTUPDTE: 'Market Update',
  FLLYR: 'Full Year Results',
  HALFYR: 'Half Year Results',
  QTRLY: 'Quarterly Report',
  MEETING: 'Meeting',
  CAPCHANGE: 'Capital Change',
  SECISSUE: 'Security Issue',
  DIRECTOR: 'Director Change',
  SHINTR: 'Substantial Holding',
  CORPACT: 'Corporate Action',
  OFFER: 'Offer Document',
  TRADEHALT: 'Trading Halt',
  ADMIN: 'Administrative',
};

const TITLE = /^([A-Z0-9]{2,6})\s+-\s+(.+?)\s+-\s+(.+)$/;

export const parseNzxAnnouncements = (
  text: string,
  feedUrl: string,
  market: Market,
): IncomingDocument[] => {
  const channel = nodeAt(nodeAt(parseXml(text), 'rss'), 'channel');
  if (!channel) throw new FetchError('parse', 'the answer is not an NZX announcements feed');
  return listAt(channel, 'item').flatMap((item): IncomingDocument[] => {
    const raw = textAt(item, 'title');
    if (!raw) return [];
    const parts = TITLE.exec(raw);
    const code = parts?.[1] ?? null;
    const typeCode = textAt(item, 'category');
    const link = absoluteUrl(textAt(item, 'link'), feedUrl);
    const description = textAt(item, 'description');
    const plain = textOf(description);
    const type = typeCode ? (TYPES[typeCode.toUpperCase()] ?? typeCode) : null;
    return [
      {
        dedupe_key: dedupeKey(textAt(item, 'guid'), link, () => `${raw}\n${plain}`),
        title: parts?.[3] ?? raw,
        url: link,
        unix: unixOfDate(textAt(item, 'pubDate')),
        html: description,
        text: plain || null,
        company_name: parts?.[2] ?? null,
        security_code: code,
        security_id: code,
        category: type,
        secondary_category: typeCode,
        categories: type ? [type] : [],
        category_tab: 'exchanges',
        market,
        mime_type: 'text/html',
      },
    ];
  });
};
