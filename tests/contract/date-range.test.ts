import { describe, expect, it } from 'vitest';
import { durationRange, shorthandProblem, type DurationOption } from '../../contract/date-range';

/**
 * Duration options counted back on the UTC calendar (contract/date-range.ts), as the server's
 * feeds and search and the UI's pickers all count them: month ends and leap years included.
 */

const at = (iso: string) => Date.parse(`${iso}T13:45:00Z`);

describe('durationRange', () => {
  it.each<[DurationOption, string]>([
    ['1d', '14-03-2024'],
    ['1w', '08-03-2024'],
    ['1M', '15-02-2024'],
    ['3M', '15-12-2023'],
    ['6M', '15-09-2023'],
    ['1y', '15-03-2023'],
    ['2y', '15-03-2022'],
    ['3y', '15-03-2021'],
  ])('%s from 15 March 2024 starts %s and ends that day', (option, start) => {
    expect(durationRange(option, at('2024-03-15'))).toEqual({
      durationOption: option,
      startDate: start,
      endDate: '15-03-2024',
    });
  });

  it.each<[string, DurationOption, string]>([
    ['2024-05-31', '3M', '29-02-2024'],
    ['2023-05-31', '3M', '28-02-2023'],
    ['2024-03-31', '1M', '29-02-2024'],
    ['2023-03-31', '1M', '28-02-2023'],
    ['2024-05-31', '1M', '30-04-2024'],
    ['2024-08-31', '6M', '29-02-2024'],
    ['2024-12-31', '6M', '30-06-2024'],
    ['2024-02-29', '1y', '28-02-2023'],
    ['2024-02-29', '2y', '28-02-2022'],
    ['2023-02-28', '1y', '28-02-2022'],
    ['2024-01-31', '3M', '31-10-2023'],
  ])('counts months to the end of a shorter month: %s less %s is %s', (day, option, start) => {
    expect(durationRange(option, at(day)).startDate).toBe(start);
  });

  it('crosses a year boundary for days and weeks', () => {
    expect(durationRange('1d', at('2024-01-01')).startDate).toBe('31-12-2023');
    expect(durationRange('1w', at('2024-01-03')).startDate).toBe('27-12-2023');
    expect(durationRange('1d', at('2024-03-01')).startDate).toBe('29-02-2024');
  });

  it('counts the UTC day, whatever the hour', () => {
    expect(durationRange('1M', Date.parse('2024-03-31T23:59:59Z'))).toEqual({
      durationOption: '1M',
      startDate: '29-02-2024',
      endDate: '31-03-2024',
    });
    expect(durationRange('1M', Date.parse('2024-03-31T00:00:00Z')).startDate).toBe('29-02-2024');
  });
});

describe('shorthandProblem', () => {
  it('accepts exactly two word characters', () => {
    expect(shorthandProblem('3M')).toBeNull();
    expect(shorthandProblem('1d')).toBeNull();
  });

  it.each(['', '1', '12M', '1 d', '-1', '1-'])('"%s" is a "Wrong shorthand"', (value) => {
    expect(shorthandProblem(value)).toBe('Wrong shorthand');
  });
});
