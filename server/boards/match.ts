import {
  BoardDefinition,
  dayToUnix,
  durationRange,
  SOURCE_FILTER_NAMES,
  type SourceFilter,
  type SourceFilterName,
} from '../../contract/boards';
import { feedTabOf, type CategoryTab, type Market } from '../../contract/documents';
import { compileKeyword, textIndex, type TextIndex } from '../../contract/keyword-query';

/**
 * A feed's definition as a test on one document: keywords (any include keyword, no exclude
 * keyword), source filters (every include filter, no exclusion filter) and the date range. Which
 * sources it reads (its `sources` ∩ what the user follows) is the caller's part.
 */

/** What a definition looks at in a document. */
export type MatchDoc = {
  title: string;
  plain_text: string;
  source_id: string;
  source_key: string;
  company_name: string | null;
  category: string | null;
  secondary_category: string | null;
  categories: string[];
  category_tab: CategoryTab;
  market: Market | null;
  unix: number;
};

export type CompiledDefinition = {
  /** The source ids it names; null: every source the user follows. */
  sources: Set<string> | null;
  /** Published between, unix seconds ([from, to)); null ends are open. */
  from: number | null;
  to: number | null;
  /** Keywords, filters and dates (not the source set). */
  matches(doc: MatchDoc): boolean;
};

const DAY = 86_400;

const fieldValues = (doc: MatchDoc, name: SourceFilterName): Array<string | null> => {
  switch (name) {
    case 'source':
      return [doc.source_key, doc.source_id];
    case 'company':
      return [doc.company_name];
    case 'category':
      return [doc.category, ...doc.categories];
    case 'secondary_category':
      return [doc.secondary_category];
    case 'tab':
      return [feedTabOf(doc)];
    case 'market':
      return [doc.market];
  }
};

const isFilterName = (name: string): name is SourceFilterName =>
  (SOURCE_FILTER_NAMES as readonly string[]).includes(name);

const compileFilter = (filter: SourceFilter) => {
  const wanted = new Set(filter.values.map((v) => v.trim().toLowerCase()));
  const name = filter.name as SourceFilterName;
  return (doc: MatchDoc) =>
    fieldValues(doc, name).some((v) => v !== null && wanted.has(v.toLowerCase()));
};

/** What is wrong with a definition beyond its schema (a filter name we do not know), or null. */
export function definitionProblem(def: BoardDefinition): { path: string; message: string } | null {
  for (const list of ['filter', 'exclusion_filter'] as const) {
    for (const [i, f] of def.filters[list].entries()) {
      if (!isFilterName(f.name)) {
        return {
          path: `definition.filters.${list}.${i}.name`,
          message: `unknown filter "${f.name}": one of ${SOURCE_FILTER_NAMES.join(', ')}`,
        };
      }
    }
  }
  return null;
}

/** The unix-second bounds of a definition's date range at `now` (ms). */
export function rangeOf(
  def: BoardDefinition,
  now: number,
): { from: number | null; to: number | null } {
  const range = def.date_range;
  if (!range) return { from: null, to: null };
  if (range.durationOption) {
    return { from: dayToUnix(durationRange(range.durationOption, now).startDate!), to: null };
  }
  return {
    from: range.startDate ? dayToUnix(range.startDate) : null,
    to: range.endDate ? dayToUnix(range.endDate) + DAY : null,
  };
}

/** Compiles a definition (valid per definitionProblem) once, to test many documents. */
export function compileDefinition(def: BoardDefinition, now: number): CompiledDefinition {
  const include = def.keywords.include.map((k) => compileKeyword(k.keyword));
  const exclude = def.keywords.exclude.map((k) => compileKeyword(k.keyword));
  const filters = def.filters.filter.filter((f) => isFilterName(f.name)).map(compileFilter);
  const exclusions = def.filters.exclusion_filter
    .filter((f) => isFilterName(f.name))
    .map(compileFilter);
  const { from, to } = rangeOf(def, now);
  const needsText = include.length > 0 || exclude.length > 0;
  return {
    sources: def.sources.length ? new Set(def.sources) : null,
    from,
    to,
    matches(doc) {
      if (from !== null && doc.unix < from) return false;
      if (to !== null && doc.unix >= to) return false;
      if (!filters.every((f) => f(doc))) return false;
      if (exclusions.some((f) => f(doc))) return false;
      if (!needsText) return true;
      // A news item's categories count as its words: a topic keyword finds what is filed under it.
      const words: TextIndex = textIndex(doc.title, doc.plain_text, doc.categories.join('\n'));
      if (include.length && !include.some((k) => k(words))) return false;
      return !exclude.some((k) => k(words));
    },
  };
}

/**
 * A stored definition (JSON text), or null when it no longer parses: such a feed gains nothing,
 * and an unreadable row never breaks ingestion for everyone else.
 */
export function parseDefinition(json: string): BoardDefinition | null {
  try {
    const parsed = BoardDefinition.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
