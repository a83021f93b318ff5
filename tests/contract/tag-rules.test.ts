import { describe, expect, it } from 'vitest';
import {
  CreateTagBody,
  bookmarkTagName,
  tagKey,
  tagNameProblem,
  tagOffer,
} from '../../contract/tags';

describe('tag rules (002 §3, §5)', () => {
  it('names the reserved bookmark tag {product}_internal_bookmark', () => {
    expect(bookmarkTagName()).toBe('needl_internal_bookmark');
    expect(bookmarkTagName('acme')).toBe('acme_internal_bookmark');
  });

  it('wants a name non-empty after trimming and at most 100 characters', () => {
    expect(tagNameProblem('  ')).toBe('tag must not be empty');
    expect(tagNameProblem('')).toBe('tag must not be empty');
    expect(tagNameProblem(' Energy ')).toBeNull();
    expect(tagNameProblem('x'.repeat(100))).toBeNull();
    expect(tagNameProblem('x'.repeat(101))).toBe('tag must be at most 100 characters');
    expect(tagNameProblem(`  ${'x'.repeat(100)}  `)).toBeNull();
  });

  it('compares names trimmed and case-insensitively', () => {
    expect(tagKey('  Energy ')).toBe('energy');
  });

  it('offers "Add {tag}" only for a new trimmed name', () => {
    const mine = [{ name: 'Energy' }, { name: 'Banks' }];
    expect(tagOffer('  Oil  ', mine)).toBe('Oil');
    expect(tagOffer('energy', mine)).toBeNull();
    expect(tagOffer(' BANKS ', mine)).toBeNull();
    expect(tagOffer('   ', mine)).toBeNull();
    expect(tagOffer('', [])).toBeNull();
    expect(tagOffer('x'.repeat(101), [])).toBeNull();
    expect(tagOffer('needl_internal_bookmark', [])).toBeNull();
    expect(tagOffer('Oil', [])).toBe('Oil');
  });

  it('parses a create body trimmed, with messages naming what is wrong', () => {
    expect(CreateTagBody.parse({ tag: ' Oil ' })).toEqual({ tag: 'Oil' });
    const empty = CreateTagBody.safeParse({ tag: '  ' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0].message).toBe('tag must not be empty');
    const long = CreateTagBody.safeParse({ tag: 'y'.repeat(101) });
    expect(long.error?.issues[0].message).toBe('tag must be at most 100 characters');
    expect(CreateTagBody.safeParse({ tag: 'a', extra: 1 }).success).toBe(false);
  });
});
