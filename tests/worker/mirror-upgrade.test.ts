import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CORE_STORES, openMirror, type StoreSpec } from '../../worker/mirror';

type Card = { id: string; group: string; rank: number };
const CARDS: Card[] = [
  { id: 'c1', group: 'b', rank: 3 },
  { id: 'c2', group: 'a', rank: 1 },
  { id: 'c3', group: 'b', rank: 2 },
];

const v1: StoreSpec = { keyPath: 'id', version: 1 };
const v2: StoreSpec = {
  keyPath: 'id',
  indexes: { group: { keyPath: ['group', 'rank'] } },
  version: 2,
};

/**
 * Versions: 1 + the sum of the specs' versions (kv, outbox, cursors: 1 each; the mirror's own
 * 'mirror_tokens': 1; cards: 1 or 2).
 */
const OWN = (declared: Record<string, string[]>) => ({
  ...declared,
  cursors: [],
  kv: [],
  mirror_tokens: [],
  outbox: ['created_at'],
});

/** The database's IndexedDB version and each store's indexes, read with the raw API. */
async function schemaOf(factory: IDBFactory, name: string) {
  const request = factory.open(name);
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const stores = Array.from(db.objectStoreNames);
  const tx = db.transaction(stores, 'readonly');
  const indexes = Object.fromEntries(
    stores.map((s) => [s, Array.from(tx.objectStore(s).indexNames)]),
  );
  db.close();
  return { version: db.version, indexes };
}

async function seeded(factory: IDBFactory, name: string) {
  const mirror = await openMirror(factory, name, { ...CORE_STORES, cards: v1 });
  await mirror.write([
    ...CARDS.map((c) => ({ store: 'cards' as const, key: c.id, value: c })),
    { store: 'kv', key: 'session', value: { user: 'u1' } },
  ]);
  mirror.close();
}

describe('mirror upgrades', () => {
  it('adds an index to an existing store, covering the records already there', async () => {
    const factory = new IDBFactory();
    await seeded(factory, 'upgrade');

    const mirror = await openMirror(factory, 'upgrade', { ...CORE_STORES, cards: v2 });
    const inB = await mirror.range<Card>('cards', {
      index: 'group',
      lower: ['b'],
      upper: ['b', []],
    });
    expect(inB.map((c) => c.id)).toEqual(['c3', 'c1']);
    expect(await mirror.count('cards', { index: 'group' })).toBe(3);
    expect(await mirror.get('kv', 'session')).toEqual({ user: 'u1' });
    expect(await mirror.getAll('cards')).toEqual(CARDS);
    mirror.close();
    expect(await schemaOf(factory, 'upgrade')).toEqual({
      version: 7,
      indexes: OWN({ cards: ['group'] }),
    });
  });

  it('keeps the version while the specs stay the same', async () => {
    const factory = new IDBFactory();
    await seeded(factory, 'same');
    const first = await schemaOf(factory, 'same');
    const again = await openMirror(factory, 'same', { ...CORE_STORES, cards: v1 });
    again.close();
    expect(first.version).toBe(6);
    expect(await schemaOf(factory, 'same')).toEqual(first);
  });

  it('drops indexes and stores no longer declared, keeping the rest', async () => {
    const factory = new IDBFactory();
    await seeded(factory, 'drop');
    const withIndex = await openMirror(factory, 'drop', {
      ...CORE_STORES,
      cards: v2,
      extra: { keyPath: null, version: 1 },
    });
    withIndex.close();

    // Dropping 'extra' (version 1) while bumping 'cards' by 1 leaves the sum, and so the
    // derived version, where it was: the mismatch alone must trigger the upgrade.
    const without = await openMirror(factory, 'drop', {
      ...CORE_STORES,
      cards: { keyPath: 'id', version: 3 },
    });
    await expect(without.count('cards', { index: 'group' })).rejects.toThrow();
    expect(await without.keys('cards')).toEqual(['c1', 'c2', 'c3']);
    without.close();
    expect(await schemaOf(factory, 'drop')).toEqual({
      version: 9,
      indexes: OWN({ cards: [] }),
    });
  });

  it('upgrades when an index changed without its version', async () => {
    const factory = new IDBFactory();
    await seeded(factory, 'forgot');
    const forgot = await openMirror(factory, 'forgot', {
      ...CORE_STORES,
      cards: { ...v2, version: 1 },
    });
    expect((await forgot.range<Card>('cards', { index: 'group' })).map((c) => c.id)).toEqual([
      'c2',
      'c3',
      'c1',
    ]);
    forgot.close();
    expect((await schemaOf(factory, 'forgot')).version).toBe(7);
  });

  it('lets an older build open a database a newer one upgraded', async () => {
    const factory = new IDBFactory();
    await seeded(factory, 'older');
    (await openMirror(factory, 'older', { ...CORE_STORES, cards: v2 })).close();

    const older = await openMirror(factory, 'older', { ...CORE_STORES, cards: v1 });
    expect(await older.keys('cards')).toEqual(['c1', 'c2', 'c3']);
    older.close();
    expect(await schemaOf(factory, 'older')).toEqual({
      version: 7,
      indexes: OWN({ cards: ['group'] }),
    });
  });

  it('closes an open mirror that an upgrade needs out of the way', async () => {
    const factory = new IDBFactory();
    await seeded(factory, 'aside');
    const old = await openMirror(factory, 'aside', { ...CORE_STORES, cards: v1 });
    const next = await openMirror(factory, 'aside', { ...CORE_STORES, cards: v2 });
    expect(await next.count('cards')).toBe(3);
    await expect(old.get('cards', 'c1')).rejects.toThrow();
    next.close();
  });
});
