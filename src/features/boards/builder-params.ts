import { FEED_BUILDER_PAGES } from '../../../contract/boards';
import { OVERLAY_PREFIX, parseOverlay, withoutOverlayParams } from '../../lib/overlay';

/**
 * The custom feed builder's place in the URL (002 §2): its page and the page's parameters.
 * The builder lives in two places with one set of parameters: the custom-feed overlay
 * (`overlay-type=custom-feed&overlay-page=...`) and the /custom-feed route
 * (`type=custom-feed&page=...`). Both are checked by the overlay host's schema, so a page that
 * needs a parameter (edit-feed needs board-id) says so the same way in both.
 */

export type FeedBuilderPage = (typeof FEED_BUILDER_PAGES)[number];
export type BuilderMode = 'overlay' | 'route';

export type BuilderParams = {
  page: FeedBuilderPage;
  templateId: string | null;
  boardId: string | null;
  searchTemplate: string | null;
  /** suggestion-ids: comma-separated. */
  suggestionIds: string[];
};

/** Where to go: a page and its parameters (absent ones are dropped from the URL). */
export type BuilderTarget = {
  page: FeedBuilderPage;
  'template-id'?: string;
  'board-id'?: string;
  'search-template'?: string;
  'suggestion-ids'?: string[];
};

export type BuilderParse =
  { status: 'ok'; params: BuilderParams } | { status: 'error'; detail: string };

const PARAM_KEYS = ['type', 'page', 'template-id', 'board-id', 'search-template', 'suggestion-ids'];

/** The builder's parameters from an already-parsed custom-feed overlay (keys without prefix). */
export function builderParams(params: Record<string, string>): BuilderParams {
  const page = (FEED_BUILDER_PAGES as readonly string[]).includes(params.page ?? '')
    ? (params.page as FeedBuilderPage)
    : 'select-feed-type';
  const ids = (params['suggestion-ids'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    page,
    templateId: params['template-id'] || null,
    boardId: params['board-id'] || null,
    searchTemplate: params['search-template'] ?? null,
    suggestionIds: [...new Set(ids)],
  };
}

/**
 * The /custom-feed route's query, checked like the overlay's. `type` may be left out (the route
 * says what it is); any other type is refused.
 */
export function parseRouteParams(search: Record<string, unknown>, product: string): BuilderParse {
  const prefixed: Record<string, unknown> = { [`${OVERLAY_PREFIX}type`]: 'custom-feed' };
  for (const key of PARAM_KEYS) {
    if (search[key] !== undefined) prefixed[`${OVERLAY_PREFIX}${key}`] = search[key];
  }
  const parsed = parseOverlay(prefixed, product);
  if (parsed.status === 'ok') return { status: 'ok', params: builderParams(parsed.params) };
  if (parsed.status === 'error') {
    return { status: 'error', detail: parsed.detail.replaceAll(OVERLAY_PREFIX, '') };
  }
  return { status: 'ok', params: builderParams({}) };
}

function targetEntries(target: BuilderTarget): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['type', 'custom-feed'],
    ['page', target.page],
  ];
  for (const key of ['template-id', 'board-id', 'search-template'] as const) {
    const value = target[key];
    if (value) out.push([key, value]);
  }
  if (target['suggestion-ids']?.length) {
    out.push(['suggestion-ids', target['suggestion-ids'].join(',')]);
  }
  return out;
}

/**
 * The query for a builder page. In the overlay, the page's own query stays and every overlay-
 * parameter is replaced; on the route, the query is the builder's alone.
 */
export function builderSearch(
  mode: BuilderMode,
  prev: Record<string, unknown>,
  target: BuilderTarget,
): Record<string, string> {
  const entries = targetEntries(target);
  if (mode === 'route') return Object.fromEntries(entries);
  const kept = withoutOverlayParams(prev) as Record<string, string>;
  return {
    ...kept,
    ...Object.fromEntries(entries.map(([key, value]) => [`${OVERLAY_PREFIX}${key}`, value])),
  };
}

/** The query that opens the builder in the overlay over the current page (for links elsewhere). */
export function customFeedOverlaySearch(target: BuilderTarget): Record<string, string> {
  return builderSearch('overlay', {}, target);
}
