import type { FeedSuggestion } from '../../../contract/boards';
import { useOp } from './use-op';

/**
 * Proposals the server made for this tab ('boards.aiSmarts'), by id, so the review page
 * (suggestion-ids) finds one that is not among the standing suggestions. Bounded: only the
 * latest few are kept.
 */
const proposals = new Map<string, FeedSuggestion>();
const KEEP = 20;

export function rememberSuggestion(suggestion: FeedSuggestion): void {
  proposals.delete(suggestion.suggestion_id);
  proposals.set(suggestion.suggestion_id, suggestion);
  while (proposals.size > KEEP) proposals.delete(proposals.keys().next().value as string);
}

export type SuggestionsState = {
  /** The suggestions found, in the order asked; null while loading. */
  found: FeedSuggestion[] | null;
  /** Ids neither remembered nor among the server's suggestions. */
  missing: string[];
  error: unknown;
};

/** Suggestions by id: this tab's proposals first, then the server's suggestions. */
export function useSuggestionsById(ids: readonly string[]): SuggestionsState {
  const local = ids.map((id) => proposals.get(id));
  const allLocal = local.every(Boolean);
  const list = useOp('boards.suggestions', allLocal ? null : {});
  if (allLocal) return { found: local as FeedSuggestion[], missing: [], error: null };
  if (list.error) return { found: null, missing: [], error: list.error };
  if (!list.data) return { found: null, missing: [], error: null };
  const byId = new Map(list.data.results.map((s) => [s.suggestion_id, s]));
  const found: FeedSuggestion[] = [];
  const missing: string[] = [];
  ids.forEach((id, i) => {
    const s = local[i] ?? byId.get(id);
    if (s) found.push(s);
    else missing.push(id);
  });
  return { found, missing, error: null };
}
