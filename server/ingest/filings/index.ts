import type { Market } from '../../../contract/documents';
import type { IncomingDocument } from '../../documents';
import type { FilingsParser } from '../presets';
import { parseBseAnnouncements } from './bse';
import { parseNzxAnnouncements } from './nzx';
import { parseSebiRss } from './sebi';
import { parseSecEdgar } from './sec';

export { parseBseAnnouncements, parseNzxAnnouncements, parseSebiRss, parseSecEdgar };

/** The typed cards of a filings answer, by the preset's parser ('feed' and 'website' are read
 * by the generic readers, see read.ts). */
export const parseFilings = (
  parser: Exclude<FilingsParser, 'feed' | 'website'>,
  text: string,
  url: string,
  market: Market,
): IncomingDocument[] => {
  switch (parser) {
    case 'sec_edgar':
      return parseSecEdgar(text, url, market);
    case 'bse_announcements':
      return parseBseAnnouncements(text, market);
    case 'sebi_rss':
      return parseSebiRss(text, url, market);
    case 'nzx_announcements':
      return parseNzxAnnouncements(text, url, market);
  }
};
