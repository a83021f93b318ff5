import type { Market } from '../../../contract/documents';
import type { IncomingDocument } from '../../documents';
import { FetchError } from '../fetch-error';

/**
 * BSE corporate announcements: the JSON its site reads from
 * api.bseindia.com/BseIndiaAPI/api/AnnSubCategoryGetData/w. `Table` holds one row per
 * announcement: NEWSID, SCRIP_CD (the BSE security code), SLONGNAME (company), NEWSSUB
 * ("<company> - <code> - <subject>"), HEADLINE, MORE, CATEGORYNAME, SUBCATNAME, NEWS_DT /
 * DissemDT (India time, no zone), ATTACHMENTNAME with PDFFLAG (0: AttachLive, 1: AttachHis),
 * NSURL (the stock page, whose path names the scrip id).
 */

type BseRow = Record<string, unknown>;

const str = (v: unknown): string | null => {
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : null;
};

/** BSE times are India Standard Time without an offset. */
const istUnix = (v: unknown): number | null => {
  const s = str(v);
  if (!s) return null;
  const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}+05:30`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
};

const ATTACHMENT_BASE = 'https://www.bseindia.com/xml-data/corpfiling';

/** The scrip id (ticker) from the stock page's path: /stock-share-price/<name>/<id>/<code>/. */
const scripIdOf = (nsurl: string | null, code: string | null): string | null => {
  if (!nsurl || !code) return null;
  const parts = nsurl.split('/').filter(Boolean);
  const at = parts.lastIndexOf(code);
  return at > 0 ? parts[at - 1].toUpperCase() : null;
};

/** "Reliance Industries Ltd - 500325 - Press Release" -> "Press Release". */
const subjectOf = (newssub: string | null, code: string | null): string | null => {
  if (!newssub) return null;
  if (code) {
    const at = newssub.indexOf(` - ${code} - `);
    if (at >= 0) return newssub.slice(at + code.length + 6).trim() || null;
  }
  return newssub;
};

export const parseBseAnnouncements = (text: string, market: Market): IncomingDocument[] => {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new FetchError('parse', 'the BSE answer is not valid JSON');
  }
  const table = (data as { Table?: unknown } | null)?.Table;
  if (!Array.isArray(table)) {
    throw new FetchError('parse', 'the BSE answer has no announcements table');
  }
  return (table as BseRow[]).flatMap((row): IncomingDocument[] => {
    const id = str(row.NEWSID);
    const company = str(row.SLONGNAME);
    if (!id || !company) return [];
    const code = str(row.SCRIP_CD);
    const attachment = str(row.ATTACHMENTNAME);
    const folder = Number(row.PDFFLAG) === 1 ? 'AttachHis' : 'AttachLive';
    const headline = str(row.HEADLINE);
    const more = str(row.MORE);
    const category = str(row.CATEGORYNAME);
    const subcategory = str(row.SUBCATNAME);
    const body = [headline, more].filter(Boolean).join('\n\n');
    return [
      {
        dedupe_key: id,
        title: subjectOf(str(row.NEWSSUB), code) ?? headline,
        url: attachment ? `${ATTACHMENT_BASE}/${folder}/${encodeURIComponent(attachment)}` : null,
        unix: istUnix(row.DissemDT) ?? istUnix(row.NEWS_DT) ?? istUnix(row.DT_TM),
        html: null,
        text: body || null,
        company_name: company,
        security_code: code,
        security_id: scripIdOf(str(row.NSURL), code),
        category,
        secondary_category: subcategory,
        categories: [category, subcategory].filter((c): c is string => !!c),
        category_tab: 'exchanges',
        market,
        mime_type: attachment?.toLowerCase().endsWith('.pdf') ? 'application/pdf' : 'text/html',
      },
    ];
  });
};
