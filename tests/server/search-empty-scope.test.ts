import { describe, expect, it } from 'vitest';
import { isEmptyScope, type SearchScope } from '../../server/search/engine';

/** A scope with no part reads nothing: one rule for search, facets, the planner and the assistant. */
describe('isEmptyScope', () => {
  const none: SearchScope = {
    viewerId: 'u1',
    feeds: [],
    sourceIds: [],
    publicCorpus: false,
    ownedBy: null,
  };

  it('is empty with no feed, source, public corpus or owner', () => {
    expect(isEmptyScope(none)).toBe(true);
  });

  it('is not empty with any one part', () => {
    expect(isEmptyScope({ ...none, feeds: ['home:u1'] })).toBe(false);
    expect(isEmptyScope({ ...none, sourceIds: ['s1'] })).toBe(false);
    expect(isEmptyScope({ ...none, publicCorpus: true })).toBe(false);
    expect(isEmptyScope({ ...none, ownedBy: 'u1' })).toBe(false);
  });
});
