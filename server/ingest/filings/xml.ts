import { XMLParser } from 'fast-xml-parser';
import { unixOfDateText } from '../feed-dates';
import { assertWellFormed } from '../parse-feed';

/**
 * A plain object view of an XML feed for the filings parsers, which read fields the generic
 * feed model drops (EDGAR's company-info and filing content). Namespace prefixes are removed,
 * attributes are plain keys, and `entry`/`item` are always arrays.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'entry' || name === 'item' || name === 'link' || name === 'category',
});

export type XmlNode = Record<string, unknown>;

export const parseXml = (text: string): XmlNode => {
  assertWellFormed(text);
  return parser.parse(text) as XmlNode;
};

/**
 * A child's text ("#text" of an element with attributes, or the string itself); of a repeated
 * child (link, category), the first one's.
 */
export const textAt = (node: unknown, key?: string): string | null => {
  const raw = key === undefined ? node : (node as XmlNode | undefined)?.[key];
  const v: unknown = Array.isArray(raw) ? raw[0] : raw;
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number') return String(v);
  if (v && typeof v === 'object' && '#text' in v) return textAt((v as XmlNode)['#text']);
  return null;
};

export const nodeAt = (node: unknown, key: string): XmlNode | null => {
  const v = (node as XmlNode | undefined)?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as XmlNode) : null;
};

export const listAt = (node: unknown, key: string): XmlNode[] => {
  const v = (node as XmlNode | undefined)?.[key];
  if (Array.isArray(v)) return v.filter((x): x is XmlNode => !!x && typeof x === 'object');
  return v && typeof v === 'object' ? [v as XmlNode] : [];
};

/** Unix seconds of a date string, or null: read as the feeds' dates are (parse-feed.ts). */
export const unixOfDate = (text: string | null): number | null => unixOfDateText(text);
