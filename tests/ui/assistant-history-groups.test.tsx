// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { groupSessions, historyGroupOf } from '../../src/features/assistant/history/history-groups';

/** 15 March 2024, 10:00 in the user's (local) time. */
const now = new Date(2024, 2, 15, 10, 0);
const at = (month: number, day: number, hour = 12, minute = 0, year = 2024) =>
  new Date(year, month - 1, day, hour, minute).toISOString();

describe('history grouping by updated_at (001 §4)', () => {
  it.each([
    ['15 Mar 09:59 (earlier today)', at(3, 15, 9, 59), 'Today'],
    ['15 Mar 00:00 (the first minute of today)', at(3, 15, 0, 0), 'Today'],
    ['16 Mar (a clock ahead of ours)', at(3, 16, 8), 'Today'],
    ['14 Mar 23:59 (a minute before today)', at(3, 14, 23, 59), 'Yesterday'],
    ['14 Mar 00:00', at(3, 14, 0, 0), 'Yesterday'],
    ['13 Mar 23:59 (2 days ago)', at(3, 13, 23, 59), 'Last 7 Days'],
    ['8 Mar 00:00 (7 days ago)', at(3, 8, 0, 0), 'Last 7 Days'],
    ['7 Mar 23:59 (8 days ago)', at(3, 7, 23, 59), 'Last 30 Days'],
    ['14 Feb (30 days ago: February 2024 has 29 days)', at(2, 14, 0, 0), 'Last 30 Days'],
    ['13 Feb 23:59 (31 days ago)', at(2, 13, 23, 59), 'Older'],
    ['15 Mar 2023 (a year ago)', at(3, 15, 10, 0, 2023), 'Older'],
  ])('%s is %s', (_, updatedAt, group) => {
    expect(historyGroupOf(updatedAt, now)).toBe(group);
  });

  it('puts an unreadable time with the oldest', () => {
    expect(historyGroupOf('not a date', now)).toBe('Older');
  });

  it('lists the groups in time order, newest first inside each, leaving out empty groups', () => {
    const s = (id: string, updated_at: string) => ({ id, updated_at });
    const groups = groupSessions(
      [
        s('old', at(1, 2)),
        s('today-early', at(3, 15, 8)),
        s('week', at(3, 10)),
        s('today-late', at(3, 15, 9, 30)),
        s('older-still', at(12, 24, 12, 0, 2023)),
        s('yesterday', at(3, 14, 18)),
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.sessions.map((x) => x.id)])).toEqual([
      ['Today', ['today-late', 'today-early']],
      ['Yesterday', ['yesterday']],
      ['Last 7 Days', ['week']],
      ['Older', ['old', 'older-still']],
    ]);
  });

  it('groups nothing when there are no sessions', () => {
    expect(groupSessions([], now)).toEqual([]);
  });
});
