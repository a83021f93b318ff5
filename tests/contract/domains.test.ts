import { describe, expect, it } from 'vitest';
import {
  ChangeEntity,
  DebugLogBody,
  MarkNotificationsReadBody,
  PreferencesPatch,
  StoreName,
  WorkerEvent,
  domains,
  endpoints,
  mergePreferences,
  nextUnread,
  unreadDelta,
  workspaceOps,
} from '../../contract';

describe('domains', () => {
  it('merge every domain into one endpoint catalogue and one op map', () => {
    // Each domain is registered once, under a name of its own.
    const names = Object.values(domains).map((d) => d.name);
    expect(names).toHaveLength(new Set(names).size);
    expect(names).toContain('assistant');
    expect(endpoints.markNotificationsRead.path).toBe('/notifications/read');
    expect(endpoints.health.path).toBe('/health');
    expect(Object.keys(workspaceOps)).toContain('notifications.window');
    expect(Object.keys(workspaceOps)).toContain('tab.online');
  });

  it('name the change entities and mirror stores the domains declare', () => {
    const all = Object.values(domains);
    const entities = all.flatMap((d) => Object.keys(d.changes));
    const stores = all.flatMap((d) => [...d.stores]);
    // The enums are exactly what the domains declare, each name declared by one domain.
    expect([...ChangeEntity.options].sort()).toEqual([...new Set(entities)].sort());
    expect(entities).toHaveLength(new Set(entities).size);
    expect([...StoreName.options].sort()).toEqual([...new Set(stores)].sort());
    expect(stores).toHaveLength(new Set(stores).size);
    expect(ChangeEntity.safeParse('read_status').success).toBe(true);
    expect(StoreName.safeParse('elsewhere').success).toBe(false);
  });

  it('tell tabs which keys of which store changed', () => {
    const event = { type: 'changed', store: 'notifications', keys: ['n1'] };
    expect(WorkerEvent.parse(event)).toEqual(event);
    expect(WorkerEvent.safeParse({ type: 'changed', store: 'elsewhere', keys: null }).success).toBe(
      false,
    );
  });
});

describe('shared rules', () => {
  it('merge preferences: absent fields stay, widths merge per overlay type', () => {
    const base = { nav_state: 'opened' as const, overlay_widths: { preview: 80, report: 70 } };
    expect(mergePreferences(base, { overlay_widths: { report: 65 } })).toEqual({
      nav_state: 'opened',
      overlay_widths: { preview: 80, report: 65 },
    });
    expect(mergePreferences(base, { nav_state: null })).toEqual({
      nav_state: null,
      overlay_widths: { preview: 80, report: 70 },
    });
  });

  it('move the unread count when a notification changes read state', () => {
    expect(unreadDelta({ read: false }, { read: true })).toBe(-1);
    expect(unreadDelta(undefined, { read: false })).toBe(1);
    expect(unreadDelta({ read: true }, { read: true })).toBe(0);
    expect(unreadDelta({ read: false }, undefined)).toBe(-1);
    expect(nextUnread(0, -1)).toBe(0);
    expect(nextUnread(3, -2)).toBe(1);
  });
});

describe('bounds on requests', () => {
  it('accepts only overlay types as width keys, at most five', () => {
    expect(PreferencesPatch.safeParse({ overlay_widths: { preview: 50 } }).success).toBe(true);
    const unknown = PreferencesPatch.safeParse({ overlay_widths: { 'x-1': 50 } });
    expect(unknown.error?.issues[0].message).toBe(
      'overlay_widths keys must be overlay types: preview, ask-{product}, custom-feed, portfolio, report',
    );
    const many = PreferencesPatch.safeParse({
      overlay_widths: {
        preview: 1,
        report: 2,
        portfolio: 3,
        'custom-feed': 4,
        'ask-needl': 5,
        'ask-other': 6,
      },
    });
    expect(many.error?.issues[0].message).toBe('overlay_widths holds at most 5 overlay types');
  });

  it('refuses a debug log nested 5,000 deep without overflowing the stack', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i += 1) deep = { inner: deep };
    const result = DebugLogBody.safeParse({ logData: deep });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(
      'logData is nested deeper than 8 levels',
    );
    expect(DebugLogBody.safeParse({ logData: { event: 'x', detail: { a: [1, 2] } } }).success).toBe(
      true,
    );
  });

  it('refuses a debug log larger than 20,000 characters', () => {
    const result = DebugLogBody.safeParse({ logData: { blob: 'x'.repeat(30_000) } });
    expect(result.error?.issues.map((i) => i.message)).toContain(
      'logData is larger than 20000 characters',
    );
  });

  it('refuses a megabyte id', () => {
    const result = MarkNotificationsReadBody.safeParse({ ids: ['x'.repeat(1024 * 1024)] });
    expect(result.error?.issues[0].message).toBe('ids[] must be at most 128 characters');
  });
});
