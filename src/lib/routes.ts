import { DEFAULT_PRODUCT, SOURCE_FAMILIES } from '../../contract';
import { normalizePath } from './path';

export { normalizePath, pathSegments } from './path';

export { pageHeader } from './page-header';
export type { PageHeader, PageHeaderInput } from './page-header';

/** The suffixes of /feeds/home (000 §2), one per source family (named as its flag). */
export const FEED_HOME_SUFFIXES = SOURCE_FAMILIES;
export type FeedHomeSuffix = (typeof FEED_HOME_SUFFIXES)[number];

/** Categories of the generic content pattern /{category}/{source}/{subcategory}. */
export const CONTENT_CATEGORIES = ['feeds', 'channels', 'notebooks', 'apps', 'needlbox'] as const;
export type ContentCategory = (typeof CONTENT_CATEGORIES)[number];

const seg = (s: string) => encodeURIComponent(s);

/**
 * The route constants of 000 §2 for one product name. `{product}` parts follow the name; paths
 * the spec spells out (/needlbox, /apps/needldrive) are literal. Builders take raw values and
 * encode them.
 */
export function routesFor(product: string) {
  const assistantBase = `/ask-${product}`;
  return {
    root: '/',
    home: '/home',
    settings: {
      root: '/settings',
      page: (page: string) => `/settings/${seg(page)}`,
      storage: '/settings/storage',
      storageDetail: (app: string, type: string) => `/settings/storage/${seg(app)}/${seg(type)}`,
      storageEmpty: '/settings/storage/empty',
      tags: '/settings/tags',
      feeds: '/settings/feeds',
      feedsRoot: '/settings/feeds/root',
      contacts: '/settings/contacts',
      contact: (id: string) => `/settings/contacts/${seg(id)}`,
      channels: '/settings/channels',
      channel: (id: string) => `/settings/channels/${seg(id)}`,
      channelFeeds: (id: string) => `/settings/channels/${seg(id)}/feeds`,
      channelMembers: (id: string) => `/settings/channels/${seg(id)}/members`,
      userSettings: '/settings/user-settings',
      portfolios: '/settings/portfolios',
      createPortfolio: '/settings/portfolios/create-portfolio',
    },
    auth: {
      root: '/auth',
      signIn: '/auth/signin',
      platformAccess: '/auth/platform-access',
      forgotPassword: '/auth/forgot-password',
    },
    onboarding: '/onboarding',
    connect: {
      root: '/connect',
      app: '/connect/app',
      appFor: (app: string) => `/connect/app/${seg(app)}`,
      website: '/connect/website',
      websiteFollowed: '/connect/website/followed',
      rss: '/connect/rss',
    },
    oauth: { root: '/oauth', redirect: '/oauth/redirect' },
    managers: {
      root: '/managers',
      assistants: '/managers/assistants',
      assistantsDashboard: '/managers/assistants/dashboard',
      assistantsBuilder: '/managers/assistants/builder',
      reportGenerationDashboard: '/managers/report_generation/dashboard',
      report: '/managers/report',
    },
    report: { root: '/report', byId: (id: string) => `/report/${seg(id)}` },
    pulse: {
      root: '/pulse',
      signIn: '/pulse/auth/signin',
      whatsappVerification: '/pulse/whatsapp-verification',
      updatePortfolio: '/pulse/update-portfolio',
      userSettings: '/pulse/settings/user-settings',
    },
    search: {
      root: '/search',
      full: '/search/full',
      sub: (subCategory: string) => `/search/${seg(subCategory)}`,
    },
    // The spec gives the full-screen route; the base and history paths are "not shown" and ours.
    assistant: {
      base: assistantBase,
      full: `${assistantBase}/full`,
      history: `${assistantBase}/history`,
    },
    document: '/document',
    image: '/image',
    notifications: '/notifications',
    extension: '/extension',
    landing: '/landing',
    redirectDocument: '/redirect/document',
    feeds: {
      root: '/feeds',
      home: '/feeds/home',
      homeSuffix: (suffix: FeedHomeSuffix) => `/feeds/home/${suffix}`,
      suffixes: FEED_HOME_SUFFIXES,
      feed: (source: string) => `/feeds/${seg(source)}`,
      links: (source: string) => `/feeds/${seg(source)}/links`,
      documents: (source: string) => `/feeds/${seg(source)}/documents`,
      media: (source: string) => `/feeds/${seg(source)}/media`,
      webclips: (source: string) => `/feeds/${seg(source)}/webclips`,
    },
    needlbox: {
      root: '/needlbox',
      bookmarks: '/needlbox/bookmarks/all',
      tags: '/needlbox/tags/all',
      comments: '/needlbox/comments/all',
    },
    content: (category: ContentCategory, source: string, subCategory?: string) =>
      `/${category}/${seg(source)}${subCategory ? `/${seg(subCategory)}` : ''}`,
    chats: (category: ContentCategory, source: string) => `/${category}/${seg(source)}/chats`,
    comments: (category: ContentCategory, source: string) => `/${category}/${seg(source)}/comments`,
    preview: (category: string, deeplink: string) => `/preview/${seg(category)}/${seg(deeplink)}`,
    notePreview: (id: string) => `/preview/${product}_notebooks/${seg(id)}`,
    customFeed: '/custom-feed',
    integrations: '/integrations',
    notebooks: '/notebooks',
    channels: '/channels',
    channel: (id: string) => `/channels/${seg(id)}`,
    channelTags: (id: string) => `/channels/${seg(id)}/tags`,
    apps: '/apps',
    app: (source: string) => `/apps/${seg(source)}`,
    needldrive: '/apps/needldrive',
  } as const;
}

export type Routes = ReturnType<typeof routesFor>;

/** Routes for the default product; use routesFor(product) where the assistant path matters. */
export const ROUTES: Routes = routesFor(DEFAULT_PRODUCT);

const isAt = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

const NAV_BASES = [
  '/feeds',
  '/channels',
  '/search',
  '/needlbox',
  '/apps',
  '/notebooks',
  '/connect',
];

/**
 * Whether a route shows the side navigation (000 §2): routes based at /feeds, /channels,
 * /search, /needlbox, /apps, /notebooks, /connect, plus the assistant base and history routes
 * (the full-screen assistant has none).
 */
export function routeHasNav(pathname: string, product: string): boolean {
  const path = normalizePath(pathname);
  const { assistant } = routesFor(product);
  return (
    NAV_BASES.some((base) => isAt(path, base)) ||
    path === assistant.base ||
    isAt(path, assistant.history)
  );
}

/** Sign-in screens: /auth/* and /pulse/auth/*. */
export function isAuthPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return isAt(path, '/auth') || isAt(path, '/pulse/auth');
}
