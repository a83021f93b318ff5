import { durationRange, type DateRange } from '../../contract/date-range';
import { ApiError } from '../errors';

/**
 * The published-time window of a search, in unix seconds, both ends inclusive (EngineFilter's
 * from/to). Days are the user's: midnight to midnight in `timezone` (UTC without one), so
 * "today" and "01-03-2025" mean the day the user is living.
 */
export type TimeWindow = { from: number | null; to: number | null };

const bad = (path: string, message: string) =>
  new ApiError(400, 'bad_request', `${path}: ${message}`, [{ path, message }]);

const DAY_MS = 86_400_000;

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `ms`, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant (ms) a wall-clock day begins in `timeZone`; `utcMidnight` is that day at 00:00 UTC. */
function dayStart(utcMidnight: number, timeZone: string): number {
  // The offset at the guess can differ from the offset at the answer across a DST change.
  const guess = utcMidnight - offsetAt(utcMidnight, timeZone);
  return utcMidnight - offsetAt(guess, timeZone);
}

const DDMMYYYY = /^(\d{2})-(\d{2})-(\d{4})$/;
const utcMidnightOf = (day: string) => {
  const [, d, m, y] = DDMMYYYY.exec(day)!.map(Number);
  return Date.UTC(y, m - 1, d);
};

/** Today's wall-clock date in `timeZone`, as 00:00 UTC of that date (ms). */
const todayIn = (now: number, timeZone: string) => {
  const local = now + offsetAt(now, timeZone);
  return local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
};

/** The window of a whole day (or days from `first` to `last`), in seconds. */
const daysWindow = (first: number, last: number, timeZone: string): TimeWindow => ({
  from: Math.floor(dayStart(first, timeZone) / 1000),
  to: Math.floor(dayStart(last + DAY_MS, timeZone) / 1000) - 1,
});

/**
 * The window of `today_date_range` and `date_range` together (both must hold). A duration
 * option runs from the start of the day that many days, weeks, months or years back to now;
 * DD-MM-YYYY days count whole (the end day included). An end before the start is a 400.
 */
export function searchWindow(
  body: {
    today_date_range?: boolean;
    date_range?: Partial<DateRange>;
    timezone?: string;
  },
  now: number,
): TimeWindow {
  const tz = body.timezone ?? 'UTC';
  const parts: TimeWindow[] = [];
  if (body.today_date_range) {
    const today = todayIn(now, tz);
    parts.push(daysWindow(today, today, tz));
  }
  const range = body.date_range;
  if (range?.durationOption) {
    // durationRange counts back on the UTC calendar: hand it the user's wall clock as UTC.
    const local = durationRange(range.durationOption, now + offsetAt(now, tz));
    parts.push({ from: daysWindow(utcMidnightOf(local.startDate!), 0, tz).from, to: null });
  } else if (range) {
    const first = range.startDate ? utcMidnightOf(range.startDate) : null;
    const last = range.endDate ? utcMidnightOf(range.endDate) : null;
    if (first !== null && last !== null && last < first) {
      throw bad(
        'date_range.endDate',
        `endDate ${range.endDate} is before startDate ${range.startDate}`,
      );
    }
    parts.push({
      from: first === null ? null : daysWindow(first, first, tz).from,
      to: last === null ? null : daysWindow(last, last, tz).to,
    });
  }
  return {
    from: maxOf(parts.map((p) => p.from)),
    to: minOf(parts.map((p) => p.to)),
  };
}

const known = (xs: Array<number | null>) => xs.filter((x): x is number => x !== null);
const maxOf = (xs: Array<number | null>) => (known(xs).length ? Math.max(...known(xs)) : null);
const minOf = (xs: Array<number | null>) => (known(xs).length ? Math.min(...known(xs)) : null);
