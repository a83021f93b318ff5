import { z } from 'zod';
import { DURATION_OPTIONS } from './constants';

/** Date ranges (000 §9, 002 §5): duration options, DD-MM-YYYY days, the shorthand rule. */

export const DurationOption = z.enum(DURATION_OPTIONS);
export type DurationOption = z.infer<typeof DurationOption>;

export const DURATION_LABELS: Record<DurationOption, string> = {
  '1d': 'Last 1 day',
  '1w': 'Last 1 week',
  '1M': 'Last 1 month',
  '3M': 'Last 3 months',
  '6M': 'Last 6 months',
  '1y': 'Last 1 year',
  '2y': 'Last 2 years',
  '3y': 'Last 3 years',
};

export const WRONG_SHORTHAND = 'Wrong shorthand';

/** A duration shorthand must be exactly two word characters (000 §5). */
export const shorthandProblem = (value: string) => (/^\w{2}$/.test(value) ? null : WRONG_SHORTHAND);

const DDMMYYYY = /^(\d{2})-(\d{2})-(\d{4})$/;
/** A DD-MM-YYYY date, checked to be a real calendar day. */
export const DayDate = z
  .string()
  .max(10, { message: 'dates are DD-MM-YYYY' })
  .regex(DDMMYYYY, { message: 'dates are DD-MM-YYYY' })
  .refine(
    (s) => {
      // zod runs this even when the pattern failed (that issue is already reported).
      const match = DDMMYYYY.exec(s);
      if (!match) return true;
      const [, d, m, y] = match.map(Number);
      const date = new Date(Date.UTC(y, m - 1, d));
      return date.getUTCDate() === d && date.getUTCMonth() === m - 1;
    },
    { message: 'dates are real calendar days' },
  );

/** Sent as startDate, endDate and durationOption (000 §9). */
export const DateRange = z.object({
  durationOption: DurationOption.nullable(),
  startDate: DayDate.nullable(),
  endDate: DayDate.nullable(),
});
export type DateRange = z.infer<typeof DateRange>;

const pad = (n: number) => String(n).padStart(2, '0');
/** A date as DD-MM-YYYY (UTC). */
export const formatDay = (date: Date) =>
  `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
/** Midnight UTC of a DD-MM-YYYY date, in unix seconds. */
export const dayToUnix = (day: string) => {
  const [, d, m, y] = DDMMYYYY.exec(day)!.map(Number);
  return Date.UTC(y, m - 1, d) / 1000;
};

/**
 * `date` moved back whole months on the UTC calendar, keeping its day but clamped to the end
 * of a shorter month: 31 May less 3 months is 29 Feb 2024 (28 Feb 2023), never 2 March.
 */
function monthsBefore(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)));
}

/**
 * The range a duration option covers, ending `now` (ms), on the UTC calendar: days and weeks
 * count back calendar days; months and years count back calendar months, clamped to the end
 * of a shorter month (31 Mar less 1 month is the last day of February).
 */
export function durationRange(option: DurationOption, now: number): DateRange {
  const end = new Date(now);
  const n = Number(option.slice(0, -1));
  const unit = option.slice(-1);
  let start: Date;
  if (unit === 'd' || unit === 'w') {
    start = new Date(now);
    start.setUTCDate(start.getUTCDate() - n * (unit === 'w' ? 7 : 1));
  } else start = monthsBefore(end, unit === 'M' ? n : 12 * n);
  return { durationOption: option, startDate: formatDay(start), endDate: formatDay(end) };
}
