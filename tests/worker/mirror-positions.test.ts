import { IDBFactory } from 'fake-indexeddb';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORE_STORES, openMirror, type Mirror } from '../../worker/mirror';

/**
 * 20,000 records n-000000 .. n-019999; n-i (i = 1000·a + b, a < 20, b < 1000) has
 * created_at = 20·b + a. Newest first, the row at offset k has created_at v = 19999 - k, which
 * is record n-(1000·(v mod 20) + floor(v / 20)): offset 0 is n-019999, offset 1 n-018999.
 * Windows far apart make the mirror walk thousands of entries and leave positions behind;
 * these tests hold it to exact rows whatever route it takes, and after writes.
 */
const SPECS = {
  ...CORE_STORES,
  items: { keyPath: 'id', indexes: { created_at: { keyPath: 'created_at' } }, version: 1 },
} as const;
type Store = keyof typeof SPECS;
type Item = { id: string; created_at: number };

const idOf = (i: number) => `n-${String(i).padStart(6, '0')}`;
const NAME = 'positions';

async function filled(factory: IDBFactory, seekByRange: boolean) {
  const mirror = await openMirror(factory, NAME, SPECS, { seekByRange });
  const items = [];
  for (let i = 0; i < 20_000; i += 1) {
    const value: Item = { id: idOf(i), created_at: (i % 1000) * 20 + Math.floor(i / 1000) };
    items.push({ store: 'items' as const, key: value.id, value });
  }
  await mirror.write(items);
  return mirror;
}

const newest = (mirror: Mirror<Store>, offset: number, count = 3) =>
  mirror
    .window<Item>('items', { index: 'created_at', direction: 'prev', offset, count })
    .then((w) => w.keys);

// Browsers reach a position backwards by range, fake-indexeddb by continue(): both must agree.
describe.each([
  ['by range', true],
  ['by continue()', false],
])(
  'mirror windows from remembered positions (seeking %s)',
  (_, seekByRange) => {
    // Filling 20,000 records takes most of a test's time: one fill serves the file's tests in
    // order. Each test that writes puts the records back as they were (the next test's first
    // assertions check that), and the one that clears the store comes last.
    let factory: IDBFactory;
    let mirror: Mirror<Store>;
    beforeAll(async () => {
      factory = new IDBFactory();
      mirror = await filled(factory, seekByRange);
    }, 30_000);

    it('answers the same rows scrolling forwards, backwards and jumping', async () => {
      const expected: Array<[number, string[]]> = [
        [10_000, ['n-019499', 'n-018499', 'n-017499']],
        [10_050, ['n-009497', 'n-008497', 'n-007497']],
        [9_950, ['n-009502', 'n-008502', 'n-007502']],
        [15_000, ['n-019249', 'n-018249', 'n-017249']],
        [2_000, ['n-019899', 'n-018899', 'n-017899']],
        [4_096, ['n-003795', 'n-002795', 'n-001795']],
        [4_095, ['n-004795', 'n-003795', 'n-002795']],
        [12_345, ['n-014382', 'n-013382', 'n-012382']],
        [8_192, ['n-007590', 'n-006590', 'n-005590']],
        [19_998, ['n-001000', 'n-000000']],
        [0, ['n-019999', 'n-018999', 'n-017999']],
        [10_000, ['n-019499', 'n-018499', 'n-017499']],
      ];
      for (const [offset, keys] of expected) expect(await newest(mirror, offset)).toEqual(keys);
    });

    it('reads rows past a known count as empty, and the last rows from the end', async () => {
      expect(await mirror.count('items', { index: 'created_at' })).toBe(20_000);
      expect(await newest(mirror, 20_000)).toEqual([]);
      expect(await newest(mirror, 19_998)).toEqual(['n-001000', 'n-000000']);
      const oldest = await mirror.window<Item>('items', {
        index: 'created_at',
        offset: 15_000,
        count: 3,
      });
      expect(oldest.keys).toEqual(['n-000750', 'n-001750', 'n-002750']);
      expect(oldest.rows.map((r) => r.created_at)).toEqual([15_000, 15_001, 15_002]);
    });

    it('shifts the rows after a write before them', async () => {
      expect(await newest(mirror, 10_000)).toEqual(['n-019499', 'n-018499', 'n-017499']);
      expect(await newest(mirror, 4_095)).toEqual(['n-004795', 'n-003795', 'n-002795']);
      await mirror.write([{ store: 'items', key: 'n-019999' }]);
      expect(await newest(mirror, 10_000)).toEqual(['n-018499', 'n-017499', 'n-016499']);
      expect(await newest(mirror, 4_095, 2)).toEqual(['n-003795', 'n-002795']);
      await mirror.write([
        { store: 'items', key: 'n-019999', value: { id: 'n-019999', created_at: 19_999 } },
      ]);
    });

    it('sees writes made through another connection', async () => {
      expect(await newest(mirror, 10_000)).toEqual(['n-019499', 'n-018499', 'n-017499']);
      expect(await mirror.count('items')).toBe(20_000);

      // Another worker instance (a dedicated worker in another tab) on the same database.
      const other = await openMirror(factory, NAME, SPECS, { seekByRange });
      await other.write([{ store: 'items', key: 'n-019999' }]);
      expect(await newest(mirror, 10_000)).toEqual(['n-018499', 'n-017499', 'n-016499']);
      expect(await mirror.count('items')).toBe(19_999);

      await other.apply([
        { store: 'items', key: 'n-019999', value: { id: 'n-019999', created_at: 19_999 } },
      ]);
      expect(await newest(mirror, 10_000)).toEqual(['n-019499', 'n-018499', 'n-017499']);
      expect(await mirror.count('items')).toBe(20_000);
      other.close();
    });

    it('forgets positions when a store is cleared', async () => {
      expect(await newest(mirror, 10_000)).toEqual(['n-019499', 'n-018499', 'n-017499']);
      expect(await mirror.count('items')).toBe(20_000);
      await mirror.clear(['items']);
      expect(await newest(mirror, 10_000)).toEqual([]);
      expect(await mirror.count('items')).toBe(0);
    });
  },
  // By range, fake-indexeddb's cursors are slow (see ReadsContext); correct all the same.
  60_000,
);
