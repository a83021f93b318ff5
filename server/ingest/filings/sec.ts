import type { Market } from '../../../contract/documents';
import { absoluteUrl, type IncomingDocument } from '../../documents';
import { FetchError } from '../fetch-error';
import { textOf } from '../parse-feed';
import { listAt, nodeAt, parseXml, textAt, unixOfDate, type XmlNode } from './xml';

/**
 * SEC EDGAR's Atom feeds, both shapes:
 * - "getcurrent" (latest filings): one entry per filer role, titled
 *   `8-K - MICROSOFT CORP (0000789019) (Filer)`, the form type as `<category term>`, the
 *   accession number in `<id>` (`urn:tag:sec.gov,2008:accession-number=...`);
 * - the company browse feed (action=getcompany): `<company-info>` (conformed-name, cik) once,
 *   and per entry `<content type="text/xml">` with accession-number, filing-type, form-name,
 *   filing-date and filing-href.
 * Cards: company_name, security_code = the CIK, category = the form type, secondary_category =
 * the form's name (or the filer's role when the feed gives no name).
 */

const TITLE = /^(.+?)\s+-\s+(.+?)\s+\((\d{10})\)\s*(?:\(([^)]+)\))?\s*$/;

/** Names of the commonest forms, for a card that says what a filing is. */
const FORM_NAMES: Record<string, string> = {
  '10-K': 'Annual report',
  '10-Q': 'Quarterly report',
  '8-K': 'Current report',
  '6-K': 'Report of foreign issuer',
  '20-F': 'Annual report of foreign issuer',
  '4': 'Statement of changes in beneficial ownership',
  '3': 'Initial statement of beneficial ownership',
  'S-1': 'Registration statement',
  'DEF 14A': 'Definitive proxy statement',
  '13F-HR': 'Institutional holdings report',
  'SC 13D': 'Beneficial ownership report (active)',
  'SC 13G': 'Beneficial ownership report (passive)',
};

const accessionOf = (id: string | null, content: XmlNode | null): string | null =>
  textAt(content, 'accession-number') ?? /accession-number=([\d-]+)/.exec(id ?? '')?.[1] ?? null;

const hrefOf = (entry: XmlNode): string | null => {
  const links = listAt(entry, 'link');
  const alt = links.find((l) => (l.rel ?? 'alternate') === 'alternate') ?? links[0];
  return typeof alt?.href === 'string' ? alt.href : null;
};

export const parseSecEdgar = (
  text: string,
  feedUrl: string,
  market: Market,
): IncomingDocument[] => {
  const doc = parseXml(text);
  const feed = nodeAt(doc, 'feed');
  if (!feed) throw new FetchError('parse', 'the answer is not an EDGAR Atom feed');
  const company = nodeAt(feed, 'company-info');
  const companyName = textAt(company, 'conformed-name');
  const companyCik = textAt(company, 'cik');
  return listAt(feed, 'entry').flatMap((entry): IncomingDocument[] => {
    const content = nodeAt(entry, 'content');
    const title = textAt(entry, 'title') ?? '';
    const parts = TITLE.exec(title);
    const formType =
      textAt(content, 'filing-type') ??
      (listAt(entry, 'category')[0]?.term as string | undefined) ??
      parts?.[1] ??
      null;
    const name = parts?.[2] ?? companyName;
    const cik = parts?.[3] ?? companyCik;
    const accession = accessionOf(textAt(entry, 'id'), content);
    if (!formType || !name || !accession) return [];
    const formName = textAt(content, 'form-name') ?? FORM_NAMES[formType] ?? null;
    const summary = textAt(entry, 'summary');
    const link = absoluteUrl(textAt(content, 'filing-href') ?? hrefOf(entry), feedUrl);
    return [
      {
        // One filing can list several companies (a Form 4's issuer and reporter): one card each.
        dedupe_key: `${accession}:${cik ?? ''}`,
        title: `${formType} - ${name}${formName ? `: ${formName}` : ''}`,
        url: link,
        unix: unixOfDate(textAt(entry, 'updated')) ?? unixOfDate(textAt(content, 'filing-date')),
        html: summary,
        text: textOf(summary) || null,
        company_name: name,
        security_code: cik,
        security_id: null,
        category: formType,
        secondary_category: formName ?? parts?.[4] ?? null,
        categories: [formType],
        category_tab: 'exchanges',
        market,
        mime_type: 'text/html',
      },
    ];
  });
};
