/**
 * Session grouping of the history panel (001 §4 "Session grouping"): by updated_at into Today,
 * Yesterday, Last 7 Days (up to 7 days ago), Last 30 Days (up to 30) and Older. Days are the
 * user's calendar days (local time), so a session from 23:50 last night is Yesterday at 00:10,
 * not Today; the difference is counted in whole calendar days.
 */

export const HISTORY_GROUPS = [
  'Today',
  'Yesterday',
  'Last 7 Days',
  'Last 30 Days',
  'Older',
] as const;
export type HistoryGroup = (typeof HISTORY_GROUPS)[number];

/** Session grouping thresholds in days (001 §9). */
export const RECENT_DAYS = 7;
export const MONTH_DAYS = 30;

const startOfDay = (date: Date) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/**
 * Whole calendar days from `date` to `now`. Rounded: a day with a daylight-saving change is 23
 * or 25 hours long, and is still one day.
 */
export function daysBetween(date: Date, now: Date): number {
  return Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
}

/** The group of one time; a time in the future (another device's clock) counts as Today. */
export function historyGroupOf(updatedAt: string, now: Date): HistoryGroup {
  const date = new Date(updatedAt);
  // An unreadable time sorts with the oldest rather than claiming to be recent.
  if (Number.isNaN(date.getTime())) return 'Older';
  const days = daysBetween(date, now);
  if (days <= 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days <= RECENT_DAYS) return 'Last 7 Days';
  if (days <= MONTH_DAYS) return 'Last 30 Days';
  return 'Older';
}

export type SessionGroup<T> = { label: HistoryGroup; sessions: T[] };

/**
 * Sessions in their groups, in the order above, newest first within each; groups with no
 * session are left out.
 */
export function groupSessions<T extends { updated_at: string }>(
  sessions: readonly T[],
  now: Date,
): Array<SessionGroup<T>> {
  const time = (s: T) => {
    const t = new Date(s.updated_at).getTime();
    return Number.isNaN(t) ? -Infinity : t;
  };
  const sorted = [...sessions].sort((a, b) => time(b) - time(a));
  const byGroup = new Map<HistoryGroup, T[]>();
  for (const session of sorted) {
    const label = historyGroupOf(session.updated_at, now);
    const list = byGroup.get(label) ?? [];
    list.push(session);
    byGroup.set(label, list);
  }
  return HISTORY_GROUPS.filter((label) => byGroup.has(label)).map((label) => ({
    label,
    sessions: byGroup.get(label) ?? [],
  }));
}
