import { SOURCE_GROUPS } from '../../../contract/source-catalogue';
import {
  MAX_PRIORITY_BULK,
  PRIORITY_TEXT,
  type Categories,
  type Source,
} from '../../../contract/sources';

/**
 * The source screens' rules: the catalogue's sections (000 §3 groups) and the bulk priority
 * limit (002 §5). No React, no DOM.
 */

export type CatalogueSection = { title: string; sources: Source[] };

const GROUP_ORDER: readonly string[] = Object.values(SOURCE_GROUPS).map((g) => g.title);

/** Priority sources first (website_priority), then by label. */
const byPriorityThenLabel = (a: Source, b: Source) =>
  Number(b.priority) - Number(a.priority) || a.label.localeCompare(b.label);

/**
 * The catalogue as the page lists it: sources of a regulatory group under the group's title
 * ("Indian Capital Markets", "US Capital Markets", then NZ), in that order, before every other
 * category under its own label. A source listed in several categories shows once, in the first.
 * `query` keeps the sources whose label or group contains it (case-insensitive).
 */
export function catalogueSections(catalogue: Categories, query = ''): CatalogueSection[] {
  const needle = query.trim().toLowerCase();
  const matches = (s: Source) =>
    !needle ||
    s.label.toLowerCase().includes(needle) ||
    (s.group ?? '').toLowerCase().includes(needle);
  const seen = new Set<string>();
  const sections = new Map<string, Source[]>();
  for (const category of catalogue.results) {
    for (const source of category.sources) {
      if (seen.has(source.key) || !matches(source)) continue;
      seen.add(source.key);
      const title = source.group ?? category.group ?? category.label;
      sections.set(title, [...(sections.get(title) ?? []), source]);
    }
  }
  const rank = (title: string) => {
    const i = GROUP_ORDER.indexOf(title);
    return i < 0 ? GROUP_ORDER.length : i;
  };
  return [...sections.entries()]
    .map(([title, sources]) => ({ title, sources: [...sources].sort(byPriorityThenLabel) }))
    .sort((a, b) => rank(a.title) - rank(b.title));
}

/**
 * The catalogue with the user's own follows applied: what the user follows (the mirror's list,
 * changed at once by a follow or an unfollow) wins over the catalogue's copy, which is cached
 * for 15 s (002 §7). Null `followed` (not read yet) leaves the catalogue as it is.
 */
export function withFollowed(
  catalogue: Categories,
  followed: readonly Source[] | null,
): Categories {
  if (followed === null) return catalogue;
  const byKey = new Map(followed.map((s) => [s.key, s]));
  const apply = (s: Source): Source => {
    const mine = byKey.get(s.key);
    return mine ? { ...s, ...mine, group: s.group ?? mine.group } : { ...s, followed: false };
  };
  return {
    results: catalogue.results.map((c) => ({ ...c, sources: c.sources.map(apply) })),
  };
}

/** Followed sources in the order the followed page lists them. */
export const followedOrder = (sources: readonly Source[]) =>
  sources.filter((s) => s.followed).sort(byPriorityThenLabel);

/**
 * Whether bulk priority may run on `selected` sources (002 §5: 1 to 50). Over 50 the action is
 * disabled with the spec's tooltip; with none selected there is nothing to do.
 */
export function priorityBulk(selected: number): { enabled: boolean; tooltip: string | null } {
  if (selected > MAX_PRIORITY_BULK) return { enabled: false, tooltip: PRIORITY_TEXT.tooMany };
  return { enabled: selected >= 1, tooltip: null };
}
