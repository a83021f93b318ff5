import { IDBFactory } from 'fake-indexeddb';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORE_STORES, openMirror, type Mirror, type StoreSpec } from '../../worker/mirror';

/**
 * 100,000 records n-000000 .. n-099999. Writing i = 1000·a + b (a < 100, b < 1000), record
 * n-i has created_at = 100·b + a: the created_at order walks the ids in steps of 1000
 * (n-000000, n-001000, ..., n-099000, n-000001, n-001001, ...), unlike the primary key order.
 */
const ITEMS: StoreSpec = {
  keyPath: 'id',
  indexes: { created_at: { keyPath: 'created_at' } },
  version: 1,
};
const SPECS = { ...CORE_STORES, items: ITEMS };
type Item = { id: string; created_at: number; title: string };

const idOf = (i: number) => `n-${String(i).padStart(6, '0')}`;

describe('mirror windows over 100,000 records', () => {
  let mirror: Mirror<keyof typeof SPECS>;

  beforeAll(async () => {
    mirror = await openMirror(new IDBFactory(), 'windows', SPECS);
    const items = [];
    for (let i = 0; i < 100_000; i += 1) {
      const value: Item = {
        id: idOf(i),
        created_at: (i % 1000) * 100 + Math.floor(i / 1000),
        title: `item ${i}`,
      };
      items.push({ store: 'items' as const, key: value.id, value });
    }
    // One transaction for the whole load.
    expect(await mirror.write(items)).toBe(true);
  }, 60_000);

  const ids = (rows: Item[]) => rows.map((r) => r.id);

  it('reads an offset window at the start, the middle and the end', async () => {
    const start = await mirror.window<Item>('items', { offset: 0, count: 3 });
    expect(start.keys).toEqual(['n-000000', 'n-000001', 'n-000002']);
    expect(start.rows[0]).toEqual({ id: 'n-000000', created_at: 0, title: 'item 0' });

    const middle = await mirror.window<Item>('items', { offset: 50_000, count: 3 });
    expect(ids(middle.rows)).toEqual(['n-050000', 'n-050001', 'n-050002']);
    expect(middle.keys).toEqual(['n-050000', 'n-050001', 'n-050002']);
    expect(middle.rows[0]).toEqual({ id: 'n-050000', created_at: 50, title: 'item 50000' });

    const end = await mirror.window<Item>('items', { offset: 99_998, count: 5 });
    expect(end.keys).toEqual(['n-099998', 'n-099999']);

    expect(await mirror.window('items', { offset: 100_000, count: 5 })).toEqual({
      rows: [],
      keys: [],
    });
  });

  it('reads windows by an index, newest first', async () => {
    const newest = await mirror.window<Item>('items', {
      index: 'created_at',
      direction: 'prev',
      offset: 0,
      count: 3,
    });
    expect(newest.keys).toEqual(['n-099999', 'n-098999', 'n-097999']);
    expect(newest.rows.map((r) => r.created_at)).toEqual([99_999, 99_998, 99_997]);

    const middle = await mirror.window<Item>('items', {
      index: 'created_at',
      direction: 'prev',
      offset: 50_000,
      count: 3,
    });
    expect(middle.keys).toEqual(['n-099499', 'n-098499', 'n-097499']);

    const oldest = await mirror.window<Item>('items', {
      index: 'created_at',
      offset: 50_000,
      count: 3,
    });
    expect(oldest.keys).toEqual(['n-000500', 'n-001500', 'n-002500']);

    const last = await mirror.window<Item>('items', {
      index: 'created_at',
      direction: 'prev',
      offset: 99_999,
      count: 3,
    });
    expect(last.keys).toEqual(['n-000000']);
  });

  it('reads key-range windows', async () => {
    const from = await mirror.window<Item>('items', { index: 'created_at', lower: 250, count: 3 });
    expect(from.keys).toEqual(['n-050002', 'n-051002', 'n-052002']);
    expect(from.rows.map((r) => r.created_at)).toEqual([250, 251, 252]);

    const after = await mirror.window('items', {
      index: 'created_at',
      lower: 250,
      lowerOpen: true,
      count: 2,
    });
    expect(after.keys).toEqual(['n-051002', 'n-052002']);

    const before = await mirror.window('items', {
      index: 'created_at',
      upper: 250,
      upperOpen: true,
      direction: 'prev',
      count: 2,
    });
    expect(before.keys).toEqual(['n-049002', 'n-048002']);

    const byId = await mirror.window('items', {
      lower: 'n-070000',
      upper: 'n-070010',
      offset: 8,
      count: 5,
    });
    expect(byId.keys).toEqual(['n-070008', 'n-070009', 'n-070010']);
  });

  it('counts a store and a key range of an index', async () => {
    expect(await mirror.count('items')).toBe(100_000);
    expect(await mirror.count('items', { index: 'created_at', lower: 0, upper: 99 })).toBe(100);
    expect(
      await mirror.count('items', { index: 'created_at', lower: 0, upper: 100, upperOpen: true }),
    ).toBe(100);
    expect(await mirror.count('items', { lower: 'n-099990' })).toBe(10);
  });

  it('reads ranges and walks cursors', async () => {
    const page = await mirror.range<Item>('items', { index: 'created_at', lower: 100, limit: 3 });
    expect(ids(page)).toEqual(['n-000001', 'n-001001', 'n-002001']);

    const skipped = await mirror.range<Item>('items', { lower: 'n-099990', offset: 5, limit: 3 });
    expect(ids(skipped)).toEqual(['n-099995', 'n-099996', 'n-099997']);

    const newest = await mirror.range<Item>('items', { direction: 'prev', limit: 2 });
    expect(ids(newest)).toEqual(['n-099999', 'n-099998']);

    const seen: string[] = [];
    await mirror.iterate<Item>('items', { index: 'created_at', lower: 99_990 }, (value, key) => {
      seen.push(`${key}@${value.created_at}`);
      return seen.length < 3;
    });
    expect(seen).toEqual(['n-090999@99990', 'n-091999@99991', 'n-092999@99992']);
  });

  it('refuses a negative or fractional offset', async () => {
    await expect(mirror.window('items', { offset: -1, count: 3 })).rejects.toThrow(
      'mirror: offset must be a whole number >= 0 (got -1)',
    );
    await expect(mirror.range('items', { limit: 1.5 })).rejects.toThrow(
      'mirror: limit must be a whole number >= 0 (got 1.5)',
    );
  });
});
