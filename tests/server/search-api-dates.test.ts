import { describe, expect, it } from 'vitest';
import { searchWindow } from '../../server/search/dates';

/** The harness's clock: Monday 3 March 2025, 10:00 UTC. */
const NOW = Date.parse('2025-03-03T10:00:00.000Z');

describe('search date windows', () => {
  it('takes today as the calendar day in the time zone, UTC without one', () => {
    expect(searchWindow({ today_date_range: true }, NOW)).toEqual({
      from: 1740960000, // 2025-03-03T00:00Z
      to: 1741046399,
    });
    // 15:30 in Kolkata (+05:30): the day began at 18:30 UTC the evening before.
    expect(searchWindow({ today_date_range: true, timezone: 'Asia/Kolkata' }, NOW)).toEqual({
      from: 1740940200,
      to: 1741026599,
    });
    // 23:00 in Auckland (+13:00 in March).
    expect(searchWindow({ today_date_range: true, timezone: 'Pacific/Auckland' }, NOW)).toEqual({
      from: 1740913200,
      to: 1740999599,
    });
    // 02:00 in Los Angeles (-08:00).
    expect(searchWindow({ today_date_range: true, timezone: 'America/Los_Angeles' }, NOW)).toEqual({
      from: 1740988800,
      to: 1741075199,
    });
  });

  it('counts DD-MM-YYYY days whole, end day included, across a DST change', () => {
    const range = { durationOption: null, startDate: '09-03-2025', endDate: '09-03-2025' };
    // New York moves to EDT at 02:00 on 9 March: that day is 23 hours long.
    expect(searchWindow({ date_range: range, timezone: 'America/New_York' }, NOW)).toEqual({
      from: 1741496400, // 2025-03-09T05:00Z
      to: 1741579199, // 2025-03-10T03:59:59Z
    });
    expect(searchWindow({ date_range: { startDate: '03-03-2025', endDate: null } }, NOW)).toEqual({
      from: 1740960000,
      to: null,
    });
    expect(searchWindow({ date_range: { endDate: '03-03-2025' } }, NOW)).toEqual({
      from: null,
      to: 1741046399,
    });
  });

  it('runs a duration option from the start of its first day to now', () => {
    expect(searchWindow({ date_range: { durationOption: '1w' } }, NOW)).toEqual({
      from: 1740355200, // 2025-02-24T00:00Z
      to: null,
    });
    // 19:00 in Tokyo (+09:00): a week back is 24 February there.
    expect(
      searchWindow({ date_range: { durationOption: '1w' }, timezone: 'Asia/Tokyo' }, NOW),
    ).toEqual({ from: 1740322800, to: null });
  });

  it('narrows to both when today and a range are given', () => {
    expect(
      searchWindow(
        {
          today_date_range: true,
          date_range: { startDate: '01-03-2025', endDate: '10-03-2025' },
        },
        NOW,
      ),
    ).toEqual({ from: 1740960000, to: 1741046399 });
  });

  it('refuses an end day before the start day, naming the field', () => {
    expect(() =>
      searchWindow({ date_range: { startDate: '05-03-2025', endDate: '04-03-2025' } }, NOW),
    ).toThrow('date_range.endDate: endDate 04-03-2025 is before startDate 05-03-2025');
  });
});
