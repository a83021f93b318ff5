import {
  DURATION_LABELS,
  DayDate,
  DurationOption,
  dayToUnix,
  durationRange,
  formatDay,
  shorthandProblem,
  WRONG_SHORTHAND,
  type DateRange,
} from '../../../contract/boards';

/**
 * A feed's date range (000 §5, §9): one of the duration options, a typed shorthand ("3M",
 * "5d": exactly two word characters, a digit and a unit, else "Wrong shorthand"), or a custom
 * DD-MM-YYYY range. Dates are UTC days, as the contract and the server count them.
 */

export type RangeResult = { range: DateRange; problem: null } | { range: null; problem: string };

const SHORTHAND = /^(\d)([dwMy])$/;

/** The range a typed shorthand stands for, ending `now` (ms). */
export function rangeFromShorthand(input: string, now: number): RangeResult {
  const text = input.trim();
  const option = DurationOption.safeParse(text);
  if (option.success) return { range: durationRange(option.data, now), problem: null };
  const match = SHORTHAND.exec(text);
  if (shorthandProblem(text) || !match) return { range: null, problem: WRONG_SHORTHAND };
  const n = Number(match[1]);
  const start = new Date(now);
  if (match[2] === 'd') start.setUTCDate(start.getUTCDate() - n);
  else if (match[2] === 'w') start.setUTCDate(start.getUTCDate() - 7 * n);
  else if (match[2] === 'M') start.setUTCMonth(start.getUTCMonth() - n);
  else start.setUTCFullYear(start.getUTCFullYear() - n);
  return {
    range: { durationOption: null, startDate: formatDay(start), endDate: formatDay(new Date(now)) },
    problem: null,
  };
}

export const START_DATE_FORMAT = 'Start date must be a date as DD-MM-YYYY';
export const END_DATE_FORMAT = 'End date must be a date as DD-MM-YYYY';
export const START_AFTER_END = 'Start date must not be after the end date';

/** A custom range from two DD-MM-YYYY dates, or what is wrong with them. */
export function customRange(startDate: string, endDate: string): RangeResult {
  const start = startDate.trim();
  const end = endDate.trim();
  if (!DayDate.safeParse(start).success) return { range: null, problem: START_DATE_FORMAT };
  if (!DayDate.safeParse(end).success) return { range: null, problem: END_DATE_FORMAT };
  if (dayToUnix(start) > dayToUnix(end)) return { range: null, problem: START_AFTER_END };
  return { range: { durationOption: null, startDate: start, endDate: end }, problem: null };
}

/** How a range reads: "Last 3 months", or "01-01-2024 to 31-03-2024"; "Any time" for none. */
export function describeRange(range: DateRange | null): string {
  if (!range) return 'Any time';
  if (range.durationOption) return DURATION_LABELS[range.durationOption];
  if (range.startDate && range.endDate) return `${range.startDate} to ${range.endDate}`;
  if (range.startDate) return `From ${range.startDate}`;
  if (range.endDate) return `Until ${range.endDate}`;
  return 'Any time';
}
