import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CORE_STORES, openMirror } from '../../worker/mirror';

const SPECS = {
  ...CORE_STORES,
  items: { keyPath: 'id', version: 1 },
} as const;

async function seeded() {
  const mirror = await openMirror(new IDBFactory(), 'apply', SPECS);
  await mirror.write([
    { store: 'items', key: 'a', value: { id: 'a', title: 'A', tags: ['x', 'y'] } },
    { store: 'items', key: 'b', value: { id: 'b', title: 'B', tags: [] } },
    { store: 'items', key: 'c', value: { id: 'c', title: 'C', tags: [] } },
    { store: 'kv', key: 'flags', value: { search: true } },
    { store: 'kv', key: 'session', value: { user: 'u1' } },
  ]);
  return mirror;
}

describe('mirror apply', () => {
  it('writes and reports exactly the keys whose records changed', async () => {
    const mirror = await seeded();
    const changed = await mirror.apply([
      // Equal, with its keys in another order: no change.
      { store: 'items', key: 'a', value: { tags: ['x', 'y'], title: 'A', id: 'a' } },
      { store: 'items', key: 'b', value: { id: 'b', title: 'B!', tags: [] } },
      { store: 'items', key: 'c' },
      { store: 'items', key: 'd', value: { id: 'd', title: 'D', tags: [] } },
      // Deleting what is not there changes nothing.
      { store: 'items', key: 'zz' },
      { store: 'kv', key: 'flags', value: { search: true } },
      { store: 'kv', key: 'prefs', value: { theme: 'dark' } },
    ]);
    expect(changed).toEqual(
      new Map([
        ['items', ['b', 'c', 'd']],
        ['kv', ['prefs']],
      ]),
    );
    expect(await mirror.keys('items')).toEqual(['a', 'b', 'd']);
    expect(await mirror.get('items', 'b')).toEqual({ id: 'b', title: 'B!', tags: [] });
    expect(await mirror.get('kv', 'prefs')).toEqual({ theme: 'dark' });
  });

  it('answers null when nothing would change', async () => {
    const mirror = await seeded();
    expect(
      await mirror.apply([
        { store: 'items', key: 'a', value: { id: 'a', title: 'A', tags: ['x', 'y'] } },
        { store: 'items', key: 'missing' },
      ]),
    ).toBeNull();
    expect(await mirror.apply([])).toBeNull();
  });

  it('lets the last item on a key win', async () => {
    const mirror = await seeded();
    const changed = await mirror.apply([
      { store: 'items', key: 'b', value: { id: 'b', title: 'first', tags: [] } },
      { store: 'items', key: 'a', value: { id: 'a', title: 'A2', tags: [] } },
      { store: 'items', key: 'b', value: { id: 'b', title: 'B', tags: [] } },
    ]);
    // 'b' ends as it was: only 'a' changed.
    expect(changed).toEqual(new Map([['items', ['a']]]));
    expect(await mirror.get('items', 'b')).toEqual({ id: 'b', title: 'B', tags: [] });
  });

  it('writes nothing when its guard does not hold', async () => {
    const mirror = await seeded();
    const guard = (user: string) => ({
      key: 'session',
      holds: (value: unknown) => (value as { user?: string } | undefined)?.user === user,
    });
    const patch = [{ store: 'items' as const, key: 'b', value: { id: 'b', title: 'other' } }];
    expect(await mirror.apply(patch, guard('u2'))).toBeNull();
    expect(await mirror.get('items', 'b')).toEqual({ id: 'b', title: 'B', tags: [] });
    expect(await mirror.apply(patch, guard('u1'))).toEqual(new Map([['items', ['b']]]));
  });

  it('snapshots each touched key once: the patch that undoes a write', async () => {
    const mirror = await seeded();
    const patch = [
      { store: 'items' as const, key: 'a', value: { id: 'a', title: 'new' } },
      { store: 'items' as const, key: 'x', value: { id: 'x', title: 'X' } },
      { store: 'items' as const, key: 'a' },
    ];
    const undo = await mirror.snapshot(patch);
    expect(undo).toEqual([
      { store: 'items', key: 'x', value: undefined },
      { store: 'items', key: 'a', value: { id: 'a', title: 'A', tags: ['x', 'y'] } },
    ]);
    await mirror.write(patch);
    await mirror.write(undo);
    expect(await mirror.keys('items')).toEqual(['a', 'b', 'c']);
    expect(await mirror.get('items', 'a')).toEqual({ id: 'a', title: 'A', tags: ['x', 'y'] });
  });

  it('dumps and restores every declared store', async () => {
    const mirror = await seeded();
    const dump = await mirror.dump();
    const copy = await openMirror(new IDBFactory(), 'copy', SPECS);
    await copy.restore(dump);
    expect(await copy.dump()).toEqual(dump);
    expect(dump.kv).toEqual([
      { key: 'flags', value: { search: true } },
      { key: 'session', value: { user: 'u1' } },
    ]);
  });
});
