import { BADGE_MAX } from '../../contract';

/**
 * Numbers of 1000 or more as "Nk" with at most one decimal: 1000 -> "1k", 1500 -> "1.5k",
 * 12345 -> "12.3k". The decimal is truncated, not rounded, so a count is never overstated
 * (1999 reads "1.9k", not "2k"). Below 1000 the number is shown as is.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) < 1000) return String(n);
  const tenths = Math.trunc(n / 100);
  return `${tenths / 10}k`;
}

/** Badges cap at 99: anything above reads "99+". */
export function formatBadge(n: number): string {
  return n > BADGE_MAX ? `${BADGE_MAX}+` : String(n);
}

/**
 * A duration in its largest whole unit: "45 sec", "3 min", "1 hour", "2 hours", "1 day",
 * "3 days" (000 §9: sec, min, hour, day). sec and min are abbreviations and take no plural.
 */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} sec`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return plural(Math.floor(s / 3600), 'hour');
  return plural(Math.floor(s / 86_400), 'day');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** File sizes from bytes to YB, base 1024, one decimal at most (002 §9): "1.5 KB". */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** i;
  return `${parseFloat(value.toFixed(i === 0 ? 0 : 1))} ${SIZE_UNITS[i]}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st, 22nd, 23rd ... 31st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** The print title's date: "3rd Mar 2024" (000 §9). */
export function formatOrdinalDate(date: Date): string {
  return `${ordinal(date.getDate())} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

const DAY_SECONDS = 86_400;

/**
 * A time relative to now, either way, in the largest whole unit: "5 min ago", "in 2 hours",
 * "just now" within a few seconds.
 */
export function formatRelative(date: Date, now: Date): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  if (Math.abs(seconds) < 5) return 'just now';
  const span = formatDuration(Math.abs(seconds));
  return seconds > 0 ? `in ${span}` : `${span} ago`;
}

/** A calendar date as every screen shows it (issue 18): "27 Nov 2026", in local time. */
export function formatDate(date: Date): string {
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/**
 * The one way a screen says when something happened (cards, previews, notifications, sources,
 * the builder, citations): relative within the last day ("3 hours ago"), else the date
 * ("27 Nov 2026"). A date in the future (a publisher's clock) reads as its date.
 */
export function formatWhen(date: Date, now: Date): string {
  const age = (now.getTime() - date.getTime()) / 1000;
  if (age >= 0 && age < DAY_SECONDS) return formatRelative(date, now);
  return formatDate(date);
}

/** formatWhen for a document's publication time in Unix seconds. */
export function formatPublished(unixSeconds: number, now: Date): string {
  return formatWhen(new Date(unixSeconds * 1000), now);
}
