// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createWindowedList } from '../../src/lists/windowed-list';

type Row = { id: string; v: number };

/** A list of `total` rows r0, r1, ... whose reads are recorded and answered when released. */
function setup(total: number, opts: { block?: number; short?: boolean } = {}) {
  let version = 1;
  const reads: Array<{ offset: number; count: number; answer: () => void }> = [];
  const list = createWindowedList<Row, { offset: number; rows: Row[]; total: number }>({
    block: opts.block ?? 10,
    keyOf: (row) => row.id,
    onUpdate: () => {},
    read: ({ offset, count }) =>
      new Promise((resolve) => {
        const v = version;
        const end = Math.min(offset + count, total);
        // `short`: the mirror holds only the first half of what is asked (still loading).
        const last = opts.short ? offset + Math.floor((end - offset) / 2) : end;
        const rows = Array.from({ length: Math.max(0, last - offset) }, (_, k) => ({
          id: `r${offset + k}`,
          v,
        }));
        reads.push({ offset, count, answer: () => resolve({ offset, rows, total }) });
      }),
  });
  const answerAll = async () => {
    for (const read of reads.splice(0)) read.answer();
    await new Promise((r) => setTimeout(r, 0));
  };
  return {
    list,
    reads,
    answerAll,
    bump: () => (version += 1),
    grow: (to: number) => (total = to),
  };
}

describe('windowed list', () => {
  it('reads a block once; after a change, a block scrolled back to is read again', async () => {
    const { list, reads, answerAll, bump } = setup(1000);
    list.refresh();
    await answerAll();
    list.setRange(500, 505);
    expect(reads.map((r) => r.offset)).toEqual([500]);
    await answerAll();

    // Back to the top before any change: block 0 is still good, nothing is read.
    list.setRange(0, 5);
    expect(reads).toHaveLength(0);

    // A change to a row shown elsewhere (r500 is not shown now, but was read): no read now...
    list.setRange(500, 505);
    bump();
    list.changed(['r3']);
    expect(reads).toHaveLength(0);
    // ...but the block holding r3, read before the change, is read again when it shows.
    list.setRange(0, 5);
    expect(reads.map((r) => r.offset)).toEqual([0]);
    await answerAll();
    expect(list.row(3)).toEqual({ id: 'r3', v: 2 });
  });

  it('an empty list reads again on a change, so its first rows show', async () => {
    const { list, reads, answerAll, grow } = setup(0);
    list.refresh();
    await answerAll();
    expect(list.total()).toBe(0);

    grow(3);
    list.changed(['r0', 'r1', 'r2']);
    expect(reads.map((r) => r.offset)).toEqual([0]);
    await answerAll();
    expect(list.total()).toBe(3);
    expect(list.row(0)).toEqual({ id: 'r0', v: 1 });
  });

  it('while the shown rows have holes (the worker is still loading), any change reads again', async () => {
    const { list, reads, answerAll } = setup(1000, { short: true });
    list.setRange(500, 505);
    await answerAll();
    list.setRange(0, 5);
    await answerAll();
    expect(list.row(4)).toBeDefined();
    expect(list.row(5)).toBeUndefined();
    // r500 was read and is not shown: on its own it would not read. The holes do.
    list.changed(['r500']);
    expect(reads.map((r) => r.offset)).toEqual([0]);
  });

  it('reads a block once at a time: a change meanwhile reads it again after the answer', async () => {
    const { list, reads, bump } = setup(100);
    list.refresh();
    bump();
    list.refresh();
    // No second read of the block while the first is on its way (its answer would be dropped).
    expect(reads).toHaveLength(1);
    reads[0].answer();
    await new Promise((r) => setTimeout(r, 0));
    expect(list.row(0)).toEqual({ id: 'r0', v: 1 });
    expect(reads).toHaveLength(2);
    reads[1].answer();
    await new Promise((r) => setTimeout(r, 0));
    expect(list.row(0)).toEqual({ id: 'r0', v: 2 });
  });

  it('keeps at most 50 blocks, dropping the farthest from the view', async () => {
    const { list, reads, answerAll } = setup(100_000);
    list.refresh();
    await answerAll();
    // Scroll down block by block through 60 blocks of 10 rows.
    for (let b = 1; b < 60; b += 1) {
      list.setRange(b * 10, b * 10 + 5);
      await answerAll();
    }
    expect(list.loaded()).toHaveLength(500);
    expect(list.row(0)).toBeUndefined();
    expect(list.row(595)).toEqual({ id: 'r595', v: 1 });
    // Back at the top, the dropped rows are read again.
    list.setRange(0, 5);
    expect(reads.map((r) => r.offset)).toEqual([0]);
  });
});
