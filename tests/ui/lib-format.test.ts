// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatPublished,
  formatWhen,
  formatRelative,
  formatBadge,
  formatCount,
  formatDuration,
  formatFileSize,
  formatOrdinalDate,
  ordinal,
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

describe('formatRelative / formatPublished (card dates, ingestion status)', () => {
  const now = new Date('2024-03-03T12:00:00Z');
  it('reads either way in the largest whole unit', () => {
    expect(formatRelative(new Date('2024-03-03T11:55:00Z'), now)).toBe('5 min ago');
    expect(formatRelative(new Date('2024-03-03T14:00:00Z'), now)).toBe('in 2 hours');
    expect(formatRelative(new Date('2024-03-03T11:59:58Z'), now)).toBe('just now');
  });
  it('a card is dated relatively within a day, else by its date', () => {
    expect(formatPublished(Date.parse('2024-03-03T09:00:00Z') / 1000, now)).toBe('3 hours ago');
    expect(formatPublished(Date.parse('2024-03-01T09:00:00Z') / 1000, now)).toBe('1 Mar 2024');
  });
});

describe('formatWhen / formatDate: one date style for every screen (issue 18)', () => {
  const now = new Date(2026, 10, 27, 15, 0, 0);
  it.each([
    [new Date(2026, 10, 27, 14, 59, 58), 'just now'],
    [new Date(2026, 10, 27, 14, 55, 0), '5 min ago'],
    [new Date(2026, 10, 27, 12, 0, 0), '3 hours ago'],
    [new Date(2026, 10, 26, 15, 0, 1), '23 hours ago'],
    [new Date(2026, 10, 26, 15, 0, 0), '26 Nov 2026'],
    [new Date(2026, 8, 5, 9, 0, 0), '5 Sep 2026'],
    [new Date(2025, 0, 1, 0, 0, 0), '1 Jan 2025'],
    // A publisher's clock ahead of ours: the date, never "in 2 hours".
    [new Date(2026, 10, 27, 17, 0, 0), '27 Nov 2026'],
  ])('%s reads "%s"', (date, text) => {
    expect(formatWhen(date, now)).toBe(text);
  });

  it('dates without a time', () => {
    expect(formatDate(new Date(2026, 10, 27, 23, 59))).toBe('27 Nov 2026');
  });
});
