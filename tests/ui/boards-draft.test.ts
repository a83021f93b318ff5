import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  builderParams,
  builderSearch,
  parseRouteParams,
} from '../../src/features/boards/builder-params';
import {
  customRange,
  describeRange,
  rangeFromShorthand,
} from '../../src/features/boards/date-range';
import {
  draftDefinition,
  draftFromSuggestions,
  draftProblems,
  draftReducer,
  emptyDraft,
  toBoardDraft,
  type DraftAction,
  type FeedDraft,
} from '../../src/features/boards/draft';
import { useFeedLoadingText } from '../../src/features/boards/loading-text';
import { kw, suggestion } from './boards-fixtures';

const run = (...actions: DraftAction[]): FeedDraft => actions.reduce(draftReducer, emptyDraft());
const words = (list: Array<{ keyword: string }>) => list.map((k) => k.keyword);

describe('the custom feed draft (002 §4 keywords and source filters)', () => {
  it('keeps a keyword in one list only: adding it to exclude takes it out of include', () => {
    const draft = run(
      { type: 'addKeyword', keyword: 'chip', keywordType: 'include' },
      { type: 'addKeyword', keyword: 'lawsuit', keywordType: 'include' },
      { type: 'addKeyword', keyword: 'chip', keywordType: 'exclude' },
    );
    expect(words(draft.keywords.include)).toEqual(['lawsuit']);
    expect(words(draft.keywords.exclude)).toEqual(['chip']);
  });

  it('removes duplicates by keyword', () => {
    const draft = run(
      { type: 'addKeyword', keyword: 'semiconductor', keywordType: 'include' },
      { type: 'addKeyword', keyword: 'Semiconductor', keywordType: 'include' },
      { type: 'addKeyword', keyword: 'semiconductor ', keywordType: 'include' },
    );
    expect(draft.keywords.include).toHaveLength(1);
  });

  it('resets the shown keyword type to all when the last keyword of that type goes', () => {
    let draft = run(
      { type: 'addKeyword', keyword: 'chip', keywordType: 'exclude' },
      { type: 'addKeyword', keyword: 'fab', keywordType: 'exclude' },
      { type: 'showKeywords', active: 'exclude' },
      { type: 'removeKeyword', keyword: 'chip', keywordType: 'exclude' },
    );
    expect(draft.active).toBe('exclude');
    draft = draftReducer(draft, { type: 'removeKeyword', keyword: 'fab', keywordType: 'exclude' });
    expect(draft.active).toBe('all');
  });

  it('a source filter set in include leaves exclude, and the reverse; an empty list removes it', () => {
    let draft = run(
      { type: 'setFilter', name: 'company', values: ['Apple Inc.'], mode: 'exclude' },
      { type: 'setFilter', name: 'company', values: ['Tesla'], mode: 'include' },
    );
    expect(draft.filters).toEqual({
      filter: [{ name: 'company', values: ['Tesla'] }],
      exclusion_filter: [],
    });
    draft = draftReducer(draft, {
      type: 'setFilter',
      name: 'company',
      values: [],
      mode: 'include',
    });
    expect(draft.filters).toEqual({ filter: [], exclusion_filter: [] });
  });

  it('marks each keyword valid or not, previews only valid ones, and refuses to save invalid ones', () => {
    const draft = run(
      { type: 'name', value: '  Chips  ' },
      {
        type: 'addKeyword',
        keyword: '("chip" OR semiconductor) AND NOT lawsuit',
        keywordType: 'include',
      },
      { type: 'addKeyword', keyword: '(chip', keywordType: 'include' },
    );
    expect(draft.keywords.include.map((k) => k.valid)).toEqual([true, false]);
    expect(words(draftDefinition(draft, { validOnly: true }).keywords.include)).toEqual([
      '("chip" OR semiconductor) AND NOT lawsuit',
    ]);
    expect(draftProblems(draft)).toEqual({
      keywords: 'Fix or remove the invalid keywords before saving.',
    });
    expect(toBoardDraft(draft).board_name).toBe('Chips');
  });

  it('needs a name before saving', () => {
    expect(draftProblems(emptyDraft()).name).toBe('Feed name is required');
  });

  it('combines several suggestions by the same rules', () => {
    const draft = draftFromSuggestions([
      suggestion('a', 'Chips', {
        sources: ['s1'],
        keywords: { include: [kw('chip')], exclude: [kw('lawsuit')] },
      }),
      suggestion('b', 'Fabs', {
        sources: ['s2'],
        keywords: { include: [kw('lawsuit'), kw('Chip')], exclude: [] },
        ai: { companies: ['TSMC'], topics: [], attributes: [] },
      }),
    ]);
    expect(draft.name).toBe('Chips & Fabs');
    expect(draft.kind).toBe('ai');
    expect(words(draft.keywords.include)).toEqual(['lawsuit', 'Chip']);
    expect(draft.keywords.exclude).toEqual([]);
    expect(draft.sources).toEqual(['s1', 's2']);
    expect(draft.ai).toEqual({ companies: ['TSMC'], topics: [], attributes: [] });
  });
});

describe('date ranges (000 §5, §9)', () => {
  const now = Date.UTC(2024, 5, 15, 12);

  it('turns a duration option into DD-MM-YYYY dates with the option', () => {
    expect(rangeFromShorthand('3M', now)).toEqual({
      range: { durationOption: '3M', startDate: '15-03-2024', endDate: '15-06-2024' },
      problem: null,
    });
    expect(describeRange({ durationOption: '1d', startDate: null, endDate: null })).toBe(
      'Last 1 day',
    );
  });

  it('answers "Wrong shorthand" for anything but a digit and a unit', () => {
    for (const typed of ['3', '3MM', 'ab', '3x', '1 d']) {
      expect(rangeFromShorthand(typed, now).problem).toBe('Wrong shorthand');
    }
    expect(rangeFromShorthand('5d', now).range).toEqual({
      durationOption: null,
      startDate: '10-06-2024',
      endDate: '15-06-2024',
    });
  });

  it('checks a custom range', () => {
    expect(customRange('01-01-2024', '31-03-2024').range).toEqual({
      durationOption: null,
      startDate: '01-01-2024',
      endDate: '31-03-2024',
    });
    expect(customRange('31-02-2024', '31-03-2024').problem).toBe(
      'Start date must be a date as DD-MM-YYYY',
    );
    expect(customRange('01-04-2024', '31-03-2024').problem).toBe(
      'Start date must not be after the end date',
    );
  });
});

describe('the builder in the URL (002 §2)', () => {
  it('reads the route query with the overlay host rules', () => {
    expect(parseRouteParams({ page: 'edit-feed' }, 'needl')).toEqual({
      status: 'error',
      detail: 'board-id is required on edit-feed',
    });
    expect(parseRouteParams({ type: 'custom-feed', page: 'nope' }, 'needl').status).toBe('error');
    expect(
      parseRouteParams({ page: 'review-feed-suggestion', 'suggestion-ids': 'a,b,a' }, 'needl'),
    ).toEqual({
      status: 'ok',
      params: { ...builderParams({}), page: 'review-feed-suggestion', suggestionIds: ['a', 'b'] },
    });
  });

  it('moves between pages in the overlay keeping the page query, and on the route alone', () => {
    const prev = { q: 'rates', 'overlay-type': 'custom-feed', 'overlay-board-id': 'old' };
    expect(builderSearch('overlay', prev, { page: 'create-feed' })).toEqual({
      q: 'rates',
      'overlay-type': 'custom-feed',
      'overlay-page': 'create-feed',
    });
    expect(
      builderSearch('route', prev, {
        page: 'review-feed-suggestion',
        'suggestion-ids': ['a', 'b'],
      }),
    ).toEqual({ type: 'custom-feed', page: 'review-feed-suggestion', 'suggestion-ids': 'a,b' });
  });
});

describe('the loading text while a feed is created (002 §2)', () => {
  afterEach(() => vi.useRealTimers());

  it('changes every 2000 ms through the four messages and stays on the last', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ on }) => useFeedLoadingText(on), {
      initialProps: { on: false },
    });
    expect(result.current).toBeNull();
    rerender({ on: true });
    expect(result.current).toBe('Analyzing Your Inputs');
    act(() => vi.advanceTimersByTime(1999));
    expect(result.current).toBe('Analyzing Your Inputs');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('Building Context');
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current).toBe('Tailoring Recommendations');
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current).toBe('Applying Final Touches');
    act(() => vi.advanceTimersByTime(20_000));
    expect(result.current).toBe('Applying Final Touches');
    rerender({ on: false });
    expect(result.current).toBeNull();
    rerender({ on: true });
    expect(result.current).toBe('Analyzing Your Inputs');
  });
});
