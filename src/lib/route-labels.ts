import { assistantLabel } from './product';
import { routesFor } from './routes';

/**
 * One label per route: the breadcrumb for a path and the page heading of the page at it read
 * the same words ("AskNeedl", "User Settings", "Custom Feed"). Routes not listed here are named
 * from their segment (a source key's catalogue title, or an entity's name once known).
 */
function labelsFor(product: string): Map<string, string> {
  const r = routesFor(product);
  return new Map<string, string>([
    [r.home, 'Home'],
    [r.notifications, 'Notifications'],
    [r.search.root, 'Search'],
    [r.search.full, 'Full Screen'],
    [r.connect.root, 'Connect'],
    [r.connect.rss, 'RSS'],
    [r.onboarding, 'Onboarding'],
    [r.customFeed, 'Custom Feed'],
    [r.integrations, 'Integrations'],
    [r.document, 'Document'],
    [r.image, 'Image'],
    [r.extension, 'Extension'],
    ['/preview', 'Preview'],
    [r.report.root, 'Report'],
    [r.assistant.base, assistantLabel(product)],
    [r.assistant.full, 'Full Screen'],
    [r.assistant.history, 'History'],
    [r.feeds.root, 'Feeds'],
    [r.feeds.home, 'My Data'],
    [r.channels, 'Groups'],
    ['/channels/home', 'Group Data'],
    [r.apps, 'Apps'],
    [r.notebooks, 'Notebooks'],
    [r.needlbox.root, 'Needlbox'],
    ['/needlbox/bookmarks', 'Bookmarks'],
    ['/needlbox/tags', 'Tags'],
    ['/needlbox/comments', 'Comments'],
    [r.settings.root, 'Settings'],
    [r.settings.tags, 'Tags Manager'],
    [r.settings.storage, 'Storage'],
    // /settings/feeds lists each followed source's ingestion; the feed manager is its root.
    [r.settings.feeds, 'Ingestion Status'],
    [r.settings.feedsRoot, 'Feed Manager'],
    [r.settings.contacts, 'Contacts'],
    [r.settings.channels, 'Groups'],
    [r.settings.userSettings, 'User Settings'],
    [r.settings.portfolios, 'Portfolios'],
    [r.settings.createPortfolio, 'Create Portfolio'],
    [r.managers.root, 'Managers'],
    [r.managers.assistants, 'Assistants'],
    ['/managers/report_generation', 'Report Generation'],
    [r.managers.report, 'Report'],
    [r.pulse.root, 'Pulse'],
    [r.pulse.whatsappVerification, 'WhatsApp Verification'],
    [r.pulse.updatePortfolio, 'Update Portfolio'],
    ['/pulse/settings', 'Settings'],
    [r.pulse.userSettings, 'User Settings'],
  ]);
}

const cache = new Map<string, Map<string, string>>();

/**
 * The label of the route at `path` (decoded segments joined by "/", no trailing slash), or
 * undefined when the route has none of its own.
 */
export function routeLabel(path: string, product: string): string | undefined {
  let labels = cache.get(product);
  if (!labels) {
    labels = labelsFor(product);
    cache.set(product, labels);
  }
  return labels.get(path);
}

/** The route label of the path made of the first `count` segments. */
export function labelOfSegments(
  segments: readonly string[],
  count: number,
  product: string,
): string | undefined {
  return routeLabel(`/${segments.slice(0, count).join('/')}`, product);
}
