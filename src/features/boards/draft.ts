import {
  EMPTY_DEFINITION,
  addKeyword,
  keywordProblem,
  removeKeyword,
  setSourceFilter,
  type ActiveKeywordType,
  type AiPicks,
  type Board,
  type BoardDefinition,
  type DateRange,
  type FeedSuggestion,
  type KeywordType,
  type Keywords,
  type SourceFilters,
} from '../../../contract/boards';

/**
 * The custom feed draft (002 §3): what the builder edits before it is saved. Every rule of
 * 002 §4 comes from the contract (addKeyword, removeKeyword, setSourceFilter), so the builder,
 * the worker and the server agree on them; this file only holds them together as one state.
 */
export type FeedDraft = {
  kind: 'custom' | 'ai';
  name: string;
  description: string;
  keywords: Keywords;
  /** Which keywords the list shows: all, or one type (reset to all when that list empties). */
  active: ActiveKeywordType;
  /** Source ids; empty means every followed source. */
  sources: string[];
  filters: SourceFilters;
  dateRange: DateRange | null;
  /** What an AI feed was built from. */
  ai: AiPicks | null;
};

export type DraftAction =
  | { type: 'name'; value: string }
  | { type: 'description'; value: string }
  | { type: 'addKeyword'; keyword: string; keywordType: KeywordType }
  | { type: 'removeKeyword'; keyword: string; keywordType: KeywordType }
  | { type: 'showKeywords'; active: ActiveKeywordType }
  | { type: 'toggleSource'; sourceId: string }
  | { type: 'allSources' }
  | { type: 'setFilter'; name: string; values: string[]; mode: KeywordType }
  | { type: 'dateRange'; value: DateRange | null }
  | { type: 'picks'; picks: AiPicks }
  /** An AI proposal replaces the query (keywords, sources, filters) and keeps name and dates. */
  | { type: 'propose'; definition: BoardDefinition };

export function emptyDraft(kind: FeedDraft['kind'] = 'custom'): FeedDraft {
  return {
    kind,
    name: '',
    description: '',
    keywords: { include: [], exclude: [] },
    active: 'all',
    sources: [],
    filters: { filter: [], exclusion_filter: [] },
    dateRange: null,
    ai: null,
  };
}

/** Keywords as the validator sees them now (a stored flag may be stale). */
function checkedKeywords(keywords: Keywords): Keywords {
  const check = (list: Keywords['include']) =>
    list.map((k) => ({ keyword: k.keyword, valid: keywordProblem(k.keyword) === null }));
  return { include: check(keywords.include), exclude: check(keywords.exclude) };
}

function withDefinition(draft: FeedDraft, definition: BoardDefinition): FeedDraft {
  return {
    ...draft,
    keywords: checkedKeywords(definition.keywords),
    active: 'all',
    sources: [...definition.sources],
    filters: definition.filters,
    dateRange: definition.date_range,
    ai: definition.ai,
  };
}

export function draftFromBoard(board: Board): FeedDraft {
  return withDefinition(
    { ...emptyDraft(board.kind), name: board.board_name, description: board.description },
    board.definition,
  );
}

/**
 * One draft from one or more suggestions (suggestion-ids): their keywords, sources and filters
 * together, by the same rules as adding them one by one; the name and description of the
 * first, or the names joined when several are combined.
 */
export function draftFromSuggestions(suggestions: readonly FeedSuggestion[]): FeedDraft {
  const [first] = suggestions;
  if (!first) return emptyDraft();
  let draft = withDefinition(
    {
      ...emptyDraft(suggestions.some((s) => s.definition.ai) ? 'ai' : 'custom'),
      name: suggestions
        .map((s) => s.board_name)
        .join(' & ')
        .slice(0, 200),
      description: first.description,
    },
    first.definition,
  );
  for (const next of suggestions.slice(1)) {
    const d = next.definition;
    let keywords = draft.keywords;
    for (const type of ['include', 'exclude'] as const) {
      for (const k of d.keywords[type]) keywords = addKeyword(keywords, k.keyword, type);
    }
    let filters = draft.filters;
    for (const f of d.filters.filter)
      filters = setSourceFilter(filters, f.name, f.values, 'include');
    for (const f of d.filters.exclusion_filter) {
      filters = setSourceFilter(filters, f.name, f.values, 'exclude');
    }
    draft = {
      ...draft,
      keywords,
      filters,
      // Either one reading every followed source makes the combination read them all.
      sources: draft.sources.length && d.sources.length ? union(draft.sources, d.sources) : [],
      dateRange: draft.dateRange ?? d.date_range,
      ai: mergePicks(draft.ai, d.ai),
    };
  }
  return draft;
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

function mergePicks(a: AiPicks | null, b: AiPicks | null): AiPicks | null {
  if (!a || !b) return a ?? b;
  return {
    companies: union(a.companies, b.companies),
    topics: union(a.topics, b.topics),
    attributes: union(a.attributes, b.attributes),
  };
}

export function draftReducer(draft: FeedDraft, action: DraftAction): FeedDraft {
  switch (action.type) {
    case 'name':
      return { ...draft, name: action.value };
    case 'description':
      return { ...draft, description: action.value };
    case 'addKeyword':
      return { ...draft, keywords: addKeyword(draft.keywords, action.keyword, action.keywordType) };
    case 'removeKeyword': {
      const next = removeKeyword(draft.keywords, action.keyword, action.keywordType, draft.active);
      return { ...draft, keywords: next.keywords, active: next.active };
    }
    case 'showKeywords':
      return { ...draft, active: action.active };
    case 'toggleSource':
      return {
        ...draft,
        sources: draft.sources.includes(action.sourceId)
          ? draft.sources.filter((s) => s !== action.sourceId)
          : [...draft.sources, action.sourceId],
      };
    case 'allSources':
      return { ...draft, sources: [] };
    case 'setFilter':
      return {
        ...draft,
        filters: setSourceFilter(draft.filters, action.name, action.values, action.mode),
      };
    case 'dateRange':
      return { ...draft, dateRange: action.value };
    case 'picks':
      return { ...draft, ai: action.picks };
    case 'propose':
      return {
        ...withDefinition(draft, action.definition),
        dateRange: draft.dateRange ?? action.definition.date_range,
      };
  }
}

/** The draft's query. `validOnly` leaves out keywords the validator refuses (for a preview). */
export function draftDefinition(draft: FeedDraft, opts: { validOnly?: boolean } = {}) {
  const keep = (list: Keywords['include']) =>
    opts.validOnly ? list.filter((k) => keywordProblem(k.keyword) === null) : list;
  return {
    ...EMPTY_DEFINITION,
    sources: draft.sources,
    keywords: { include: keep(draft.keywords.include), exclude: keep(draft.keywords.exclude) },
    filters: draft.filters,
    date_range: draft.dateRange,
    ai: draft.kind === 'ai' ? draft.ai : null,
  } satisfies BoardDefinition;
}

/** The body of boards.create and boards.update. */
export function toBoardDraft(draft: FeedDraft) {
  return {
    board_name: draft.name.trim(),
    description: draft.description.trim(),
    kind: draft.kind,
    definition: draftDefinition(draft),
  };
}

export const NAME_REQUIRED = 'Feed name is required';
export const FIX_KEYWORDS = 'Fix or remove the invalid keywords before saving.';

/** What stops the draft from being saved, by field; empty when it may be saved. */
export function draftProblems(draft: FeedDraft): { name?: string; keywords?: string } {
  const problems: { name?: string; keywords?: string } = {};
  if (!draft.name.trim()) problems.name = NAME_REQUIRED;
  const all = [...draft.keywords.include, ...draft.keywords.exclude];
  if (all.some((k) => keywordProblem(k.keyword) !== null)) problems.keywords = FIX_KEYWORDS;
  return problems;
}
