import { describe, expect, it } from 'vitest';
import { keepValues } from '../../server/ingest/kept-getters';

/** The feed library's getters made to compute once per object (server/ingest/kept-getters.ts). */

/** Fresh classes for each test: a getter is wrapped for its whole class once asked. */
const classes = () => {
  class Base {
    reads = { title: 0, link: 0 };
    constructor(readonly raw: string) {}
    get title() {
      this.reads.title += 1;
      return `title of ${this.raw}`;
    }
    get link() {
      this.reads.link += 1;
      return { href: `https://example.com/${this.raw}` };
    }
  }
  class Item extends Base {
    override get title() {
      return `${super.title}!`;
    }
  }
  return { Base, Item };
};

describe('keepValues', () => {
  it('computes a kept getter once per object and answers the same value after', () => {
    const { Item } = classes();
    const item = keepValues(new Item('a'), ['title', 'link']);
    expect(item.title).toBe('title of a!');
    expect(item.title).toBe('title of a!');
    expect(item.link).toBe(item.link);
    expect(item.reads).toEqual({ title: 1, link: 1 });
  });

  it('keeps the getters named, and every getter when none are', () => {
    const some = keepValues(new (classes().Item)('b'), ['link']);
    void some.title;
    void some.title;
    void some.link;
    void some.link;
    expect(some.reads).toEqual({ title: 2, link: 1 });
    const all = keepValues(new (classes().Base)('c'));
    void all.title;
    void all.title;
    void all.link;
    expect(all.reads).toEqual({ title: 1, link: 1 });
  });

  it('leaves objects not asked to keep reading through, and each object its own values', () => {
    const { Item } = classes();
    keepValues(new Item('d'), ['title']);
    const plain = new Item('e');
    void plain.title;
    void plain.title;
    expect(plain.reads.title).toBe(2);
    const [x, y] = [keepValues(new Item('x'), ['title']), keepValues(new Item('y'), ['title'])];
    expect([x.title, y.title]).toEqual(['title of x!', 'title of y!']);
  });
});
