import { CONTENT_CATEGORIES, routesFor } from '../lib/routes';

/**
 * The app's route patterns (000 §2) for the router: the feed screen's, and every route that has
 * no screen yet (a placeholder page). Router parameters are `$name` segments.
 */

/** The full-screen preview; /preview/{product}_notebooks/{id} (a note) is more specific. */
export const PREVIEW_PATTERN = '/preview/$category/$deeplink';

/** The feed screen's routes (src/features/boards/feed-view.ts says what each shows). */
export function feedPatterns(product: string): string[] {
  const r = routesFor(product);
  return [
    r.feeds.home,
    ...r.feeds.suffixes.map((suffix) => r.feeds.homeSuffix(suffix)),
    '/feeds/$source',
    '/feeds/$source/$subcategory',
    '/feeds/$source/links',
    '/feeds/$source/documents',
    '/feeds/$source/media',
    '/feeds/$source/webclips',
    '/apps/$source',
    '/apps/$source/$subcategory',
  ];
}

/** A notebook's notes, and one note of it (features/notebooks). */
export const NOTEBOOK_PATTERNS = ['/notebooks/$source', '/notebooks/$source/$subcategory'];
/** The note preview (features/notebooks). */
export const notePreviewPattern = (product: string) => `/preview/${product}_notebooks/$id`;

/** The search screens' routes: /search/{subCategory} is a tab or a source (features/search). */
export const SEARCH_SUB_PATTERN = '/search/$subCategory';

/** Routes with a screen of their own, left out of the placeholders. */
function builtPatterns(product: string): Set<string> {
  const r = routesFor(product);
  return new Set([
    ...feedPatterns(product),
    r.search.root,
    r.search.full,
    SEARCH_SUB_PATTERN,
    r.connect.rss,
    r.connect.website,
    r.connect.websiteFollowed,
    r.settings.feeds,
    PREVIEW_PATTERN,
    r.assistant.base,
    r.assistant.full,
    r.assistant.history,
    r.needlbox.bookmarks,
    r.needlbox.tags,
    // Settings (features/settings, features/tags, features/people).
    r.settings.root,
    r.settings.userSettings,
    r.settings.tags,
    r.settings.contacts,
    r.notebooks,
    ...NOTEBOOK_PATTERNS,
    notePreviewPattern(product),
    r.document,
    r.image,
  ]);
}

/**
 * Every route of 000 §2 that has no screen yet, as router patterns. Built from the route
 * constants where they are static; parameters are the router's `$name` segments.
 */
export function placeholderPatterns(product: string): string[] {
  const r = routesFor(product);
  const contentPatterns = CONTENT_CATEGORIES.flatMap((category) => [
    `/${category}`,
    `/${category}/$source`,
    `/${category}/$source/$subcategory`,
    `/${category}/$source/chats`,
    `/${category}/$source/comments`,
  ]);
  const patterns = [
    r.home,
    r.settings.root,
    '/settings/$page',
    r.settings.storage,
    r.settings.storageEmpty,
    '/settings/storage/$app/$type',
    r.settings.tags,
    r.settings.feeds,
    r.settings.contacts,
    r.settings.channels,
    '/settings/channels/$channelId',
    '/settings/channels/$channelId/feeds',
    '/settings/channels/$channelId/members',
    r.settings.userSettings,
    r.settings.portfolios,
    r.settings.createPortfolio,
    r.onboarding,
    r.connect.root,
    r.connect.app,
    '/connect/app/$app',
    r.connect.website,
    r.connect.websiteFollowed,
    r.connect.rss,
    r.managers.root,
    r.managers.assistants,
    r.managers.assistantsDashboard,
    r.managers.assistantsBuilder,
    r.managers.reportGenerationDashboard,
    r.managers.report,
    r.report.root,
    '/report/$id',
    r.pulse.root,
    r.pulse.whatsappVerification,
    r.pulse.updatePortfolio,
    r.pulse.userSettings,
    r.search.root,
    r.search.full,
    '/search/$subCategory',
    r.assistant.base,
    r.assistant.full,
    r.assistant.history,
    r.document,
    r.image,
    r.extension,
    r.landing,
    r.feeds.home,
    ...r.feeds.suffixes.map((suffix) => r.feeds.homeSuffix(suffix)),
    r.needlbox.bookmarks,
    r.needlbox.tags,
    r.needlbox.comments,
    ...contentPatterns,
    '/feeds/$source/links',
    '/feeds/$source/documents',
    '/feeds/$source/media',
    '/feeds/$source/webclips',
    '/preview/$category/$deeplink',
    `/preview/${product}_notebooks/$id`,
    r.integrations,
    '/channels/$id/tags',
    '/market-intelligence',
    '/report-agent',
    '/supercharging-askneedl',
  ];
  // Two spellings of one pattern (/channels/$id and /channels/$source) are one route.
  const seen = new Set<string>();
  const built = builtPatterns(product);
  return patterns.filter((pattern) => {
    if (built.has(pattern)) return false;
    const shape = pattern.replace(/\$[A-Za-z]+/g, '$');
    if (seen.has(shape)) return false;
    seen.add(shape);
    return true;
  });
}
