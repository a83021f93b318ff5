import { describe, expect, it } from 'vitest';
import {
  formatPublished,
  formatRelative,
  DURATION_OPTIONS,
  dateRangeFor,
  durationLabel,
  formatBadge,
  formatCount,
  formatDayMonthYear,
  formatDuration,
  formatFileSize,
  formatOrdinalDate,
  isDurationOption,
  ordinal,
  parseDurationShorthand,
  todayRange,
  type DurationOption,
} from '../../src/lib/format';

describe('formatCount: numbers of 1000 or more read "Nk"', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1k'],
    [1500, '1.5k'],
    [1999, '1.9k'],
    [12_345, '12.3k'],
    [100_000, '100k'],
    [1_000_000, '1000k'],
  ])('%d -> %s', (n, shown) => {
    expect(formatCount(n)).toBe(shown);
  });
});

describe('formatBadge: badges cap at 99', () => {
  it.each([
    [0, '0'],
    [98, '98'],
    [99, '99'],
    [100, '99+'],
    [12_000, '99+'],
  ])('%d -> %s', (n, shown) => {
    expect(formatBadge(n)).toBe(shown);
  });
});

describe('formatDuration: sec, min, hour, day', () => {
  it.each([
    [0, '0 sec'],
    [45, '45 sec'],
    [59, '59 sec'],
    [60, '1 min'],
    [180, '3 min'],
    [3599, '59 min'],
    [3600, '1 hour'],
    [7200, '2 hours'],
    [86_399, '23 hours'],
    [86_400, '1 day'],
    [3 * 86_400, '3 days'],
  ])('%d s -> %s', (s, shown) => {
    expect(formatDuration(s)).toBe(shown);
  });
});

describe('formatFileSize: base 1024 from B to YB', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [2.3 * 1024 ** 2, '2.3 MB'],
    [1.1 * 1024 ** 3, '1.1 GB'],
    [2 * 1024 ** 4, '2 TB'],
    [5 * 1024 ** 8, '5 YB'],
  ])('%d bytes -> %s', (bytes, shown) => {
    expect(formatFileSize(bytes)).toBe(shown);
  });
});

describe('dates', () => {
  it('formats DD-MM-YYYY with leading zeros', () => {
    expect(formatDayMonthYear(new Date(2024, 2, 3))).toBe('03-03-2024');
    expect(formatDayMonthYear(new Date(2023, 11, 31))).toBe('31-12-2023');
  });

  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [31, '31st'],
  ])('ordinal %d -> %s', (n, shown) => {
    expect(ordinal(n)).toBe(shown);
  });

  it('prints the print-title date "3rd Mar 2024"', () => {
    expect(formatOrdinalDate(new Date(2024, 2, 3))).toBe('3rd Mar 2024');
    expect(formatOrdinalDate(new Date(2024, 10, 11))).toBe('11th Nov 2024');
    expect(formatOrdinalDate(new Date(2025, 0, 22))).toBe('22nd Jan 2025');
  });
});

describe('duration options', () => {
  it('has the spec options in order', () => {
    expect([...DURATION_OPTIONS]).toEqual(['1d', '1w', '1M', '3M', '6M', '1y', '2y', '3y']);
    expect(isDurationOption('1M')).toBe(true);
    expect(isDurationOption('1m')).toBe(false);
  });

  it.each<[DurationOption, string]>([
    ['1d', 'Last 1 day'],
    ['1w', 'Last 1 week'],
    ['1M', 'Last 1 month'],
    ['3M', 'Last 3 months'],
    ['6M', 'Last 6 months'],
    ['1y', 'Last 1 year'],
    ['2y', 'Last 2 years'],
    ['3y', 'Last 3 years'],
  ])('labels %s "%s"', (option, label) => {
    expect(durationLabel(option)).toBe(label);
  });

  const now = new Date(2024, 2, 15, 13, 45);
  it.each<[DurationOption, string]>([
    ['1d', '14-03-2024'],
    ['1w', '08-03-2024'],
    ['1M', '15-02-2024'],
    ['3M', '15-12-2023'],
    ['6M', '15-09-2023'],
    ['1y', '15-03-2023'],
    ['2y', '15-03-2022'],
    ['3y', '15-03-2021'],
  ])('sends %s from 15-03-2024 as %s to 15-03-2024', (option, start) => {
    expect(dateRangeFor(option, now)).toEqual({
      startDate: start,
      endDate: '15-03-2024',
      durationOption: option,
    });
  });

  it('clamps month arithmetic to the end of a shorter month', () => {
    expect(dateRangeFor('3M', new Date(2024, 4, 31)).startDate).toBe('29-02-2024');
    expect(dateRangeFor('1M', new Date(2023, 2, 31)).startDate).toBe('28-02-2023');
    expect(dateRangeFor('1y', new Date(2024, 1, 29)).startDate).toBe('28-02-2023');
  });

  it('crosses a year boundary for days and weeks', () => {
    expect(dateRangeFor('1d', new Date(2024, 0, 1)).startDate).toBe('31-12-2023');
    expect(dateRangeFor('1w', new Date(2024, 0, 3)).startDate).toBe('27-12-2023');
  });

  it("uses today's date at both ends for the today tab", () => {
    expect(todayRange(now)).toEqual({ startDate: '15-03-2024', endDate: '15-03-2024' });
  });
});

describe('parseDurationShorthand', () => {
  it('reads two word characters: amount and unit', () => {
    expect(parseDurationShorthand('3M')).toEqual({ amount: 3, unit: 'M' });
    expect(parseDurationShorthand('1d')).toEqual({ amount: 1, unit: 'd' });
    expect(parseDurationShorthand('2y')).toEqual({ amount: 2, unit: 'y' });
    expect(parseDurationShorthand('1w')).toEqual({ amount: 1, unit: 'w' });
  });

  it.each(['', '1', '12M', '1 d', '-1', '1-', 'ab', '1x', 'd1'])(
    '"%s" is a "Wrong shorthand"',
    (s) => {
      expect(() => parseDurationShorthand(s)).toThrow(new Error('Wrong shorthand'));
    },
  );
});

describe('formatRelative / formatPublished (card dates, ingestion status)', () => {
  const now = new Date('2024-03-03T12:00:00Z');
  it('reads either way in the largest whole unit', () => {
    expect(formatRelative(new Date('2024-03-03T11:55:00Z'), now)).toBe('5 min ago');
    expect(formatRelative(new Date('2024-03-03T14:00:00Z'), now)).toBe('in 2 hours');
    expect(formatRelative(new Date('2024-03-03T11:59:58Z'), now)).toBe('just now');
  });
  it('a card is dated relatively within a day, else by its date', () => {
    expect(formatPublished(Date.parse('2024-03-03T09:00:00Z') / 1000, now)).toBe('3 hours ago');
    expect(formatPublished(Date.parse('2024-03-01T09:00:00Z') / 1000, now)).toMatch(
      /^1st Mar 2024$/,
    );
  });
});
