/*
 * Dates. Feeds write them every way: RFC 822 with day and month names in the publisher's
 * language ("Mi, 15 Nov 2023", "mer., 15 nov. 2023", "Mo, 6 Mär 2023"), two-digit years,
 * no seconds, zone names (EST, CEST), ISO 8601 with or without a zone, "2023-11-15 10:00:00".
 * JavaScript's Date reads some of these, refuses others (so the item would be dated when it
 * was fetched) and reads a zoneless one in the server's own time zone. These are read here,
 * the same on every server; a date without a zone is UTC.
 */

/**
 * Month names, lower case and unaccented, in English, German, French, Spanish, Italian,
 * Portuguese and Dutch.
 */
const MONTHS: readonly (readonly string[])[] = [
  ['january', 'januar', 'janner', 'janvier', 'enero', 'gennaio', 'janeiro', 'januari'],
  ['february', 'februar', 'fevrier', 'febrero', 'febbraio', 'fevereiro', 'februari'],
  ['march', 'marz', 'mrz', 'mars', 'marzo', 'marco', 'maart', 'mrt'],
  ['april', 'avril', 'abril', 'aprile'],
  ['may', 'mai', 'mayo', 'maggio', 'maio', 'mei'],
  ['june', 'juni', 'juin', 'junio', 'giugno', 'junho'],
  ['july', 'juli', 'juillet', 'julio', 'luglio', 'julho'],
  ['august', 'aout', 'agosto', 'augustus'],
  ['september', 'septembre', 'septiembre', 'setiembre', 'settembre', 'setembro'],
  ['october', 'oktober', 'octobre', 'octubre', 'ottobre', 'outubro'],
  ['november', 'novembre', 'noviembre', 'novembro'],
  ['december', 'dezember', 'decembre', 'diciembre', 'dicembre', 'dezembro'],
];

/**
 * The month (1-12) a name or abbreviation stands for: at least three letters that begin the
 * names of one month only ("mär", "déc.", "sept", "mrt", "ott"); "jui" (juin or juillet) is
 * none.
 */
export const monthOf = (word: string): number | null => {
  const w = word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return null;
  let found: number | null = null;
  for (const [i, names] of MONTHS.entries()) {
    if (!names.some((name) => name.startsWith(w))) continue;
    if (found !== null) return null;
    found = i + 1;
  }
  return found;
};

/**
 * Zone names feeds use, by offset in minutes east of UTC. CST is the United States' (as
 * RFC 822 has it), IST India's (as Indian exchanges write it).
 */
const ZONES = new Map<string, number>(
  (
    [
      [0, 'z ut utc gmt wet'],
      [60, 'bst west cet met mez'],
      [120, 'cest mest mesz eet'],
      [180, 'eest msk'],
      [330, 'ist'],
      [480, 'sgt hkt awst'],
      [540, 'jst kst'],
      [600, 'aest'],
      [660, 'aedt'],
      [720, 'nzst'],
      [780, 'nzdt'],
      [-150, 'ndt'],
      [-180, 'adt'],
      [-210, 'nst'],
      [-240, 'edt ast'],
      [-300, 'est cdt'],
      [-360, 'cst mdt'],
      [-420, 'mst pdt'],
      [-480, 'pst akdt'],
      [-540, 'akst'],
      [-600, 'hst'],
    ] as const
  ).flatMap(([offset, names]) => names.split(' ').map((name) => [name, offset] as const)),
);

const ZONE = String.raw`(?<zone>z|[a-z]{2,5}|(?:(?:gmt|utc|ut)\s*)?[+-]\d{1,2}(?::?\d{2})?)`;
const TIME = String.raw`(?<hour>\d{1,2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:[.,]\d+)?)?(?:\s*(?<ampm>[ap])\.?\s?m\.?)?`;
const DAY_NAME = String.raw`(?:\p{L}+\.?\s*,?\s*)?`;
const THEN_TIME = String.raw`(?:(?:\s*,\s*|\s+)${TIME})?\s*${ZONE}?$`;

/** The forms read, each with named parts: day, month (a number) or monthName, year. */
const DATE_FORMS: readonly RegExp[] = [
  // ISO 8601 and the SQL form: "2023-11-15T10:00:00.000+01:00", "2023-11-15 10:00:00".
  new RegExp(
    String.raw`^(?<year>\d{4})(?<sep>[-/])(?<month>\d{1,2})\k<sep>(?<day>\d{1,2})(?:(?:T|\s+)${TIME})?\s*${ZONE}?$`,
    'i',
  ),
  // RFC 822 and its variants: "Wed, 15 Nov 2023 10:00:00 +0100", "15-Nov-23 10:00 EST".
  new RegExp(
    String.raw`^${DAY_NAME}(?<day>\d{1,2})\.?[\s-]*(?<monthName>\p{L}+)\.?[\s,-]*(?<year>\d{4}|\d{2})${THEN_TIME}`,
    'iu',
  ),
  // "November 15, 2023 10:00 AM EST", and JavaScript's "Wed Nov 15 2023 10:00:00 GMT+0100".
  new RegExp(
    String.raw`^(?:\p{L}+\.?,?\s+)?(?<monthName>\p{L}+)\.?\s+(?<day>\d{1,2})(?:st|nd|rd|th)?,?\s+(?<year>\d{4})${THEN_TIME}`,
    'iu',
  ),
  // The German and Dutch numeric form: "15.11.2023 10:00".
  new RegExp(
    String.raw`^${DAY_NAME}(?<day>\d{1,2})\.(?<month>\d{1,2})\.(?<year>\d{4})${THEN_TIME}`,
    'iu',
  ),
];

/** Minutes east of UTC of a zone as written, null when unknown. Absent is UTC. */
const zoneOffset = (zone: string | undefined): number | null => {
  if (!zone) return 0;
  const z = zone.toLowerCase().replace(/\s+/g, '');
  const numeric = /^(?:gmt|utc|ut)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(z);
  if (numeric) {
    const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0);
    return Number(numeric[3] ?? 0) > 59 || minutes > 14 * 60
      ? null
      : (numeric[1] === '-' ? -1 : 1) * minutes;
  }
  return ZONES.get(z) ?? null;
};

type DateParts = Partial<
  Record<
    'year' | 'month' | 'monthName' | 'day' | 'hour' | 'minute' | 'second' | 'ampm' | 'zone',
    string
  >
>;

/** Unix seconds of the parts, or null when they name no real moment (31 Nov, 25:00, zone XYZ). */
const unixOfParts = (p: DateParts): number | null => {
  const month = p.monthName ? monthOf(p.monthName) : Number(p.month);
  const offset = zoneOffset(p.zone);
  if (month === null || offset === null) return null;
  // Two-digit years as RFC 2822 reads them: 00-49 are 2000-2049, 50-99 are 1950-1999.
  const y = Number(p.year);
  const year = p.year?.length === 2 ? (y < 50 ? 2000 + y : 1900 + y) : y;
  const day = Number(p.day);
  let hour = Number(p.hour ?? 0);
  const minute = Number(p.minute ?? 0);
  const second = Number(p.second ?? 0);
  if (p.ampm) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (p.ampm.toLowerCase() === 'p' ? 12 : 0);
  }
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return null;
  // A leap second (60) is read as the 59th.
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59)));
  if (date.getUTCDate() !== day) return null; // 31 Nov, 29 Feb 2023
  return Math.floor(date.getTime() / 1000) - offset * 60;
};

/**
 * Unix seconds of a date as feeds write it (see above), else what JavaScript's Date makes of
 * it, else null (the caller falls back to another date, or to the time it read the item).
 */
export const unixOfDateText = (raw: string | null | undefined): number | null => {
  // A trailing comment names the zone again: "+0100 (CET)", "GMT+0100 (Central European Time)".
  const text = raw
    ?.replace(/\s*\([^)]*\)\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  for (const form of DATE_FORMS) {
    const parts = form.exec(text)?.groups;
    // A word that names no month ("Nov 15th": "th") means another form.
    if (!parts || (parts.monthName && monthOf(parts.monthName) === null)) continue;
    // A date in one of these forms is read by it alone: JavaScript would roll 31 Nov over.
    return unixOfParts(parts);
  }
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
};
