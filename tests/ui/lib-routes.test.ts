// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  FEED_HOME_SUFFIXES,
  ROUTES,
  isAuthPath,
  normalizePath,
  pathSegments,
  routeHasNav,
  routesFor,
} from '../../src/lib/routes';

describe('route constants (000 §2)', () => {
  const r = routesFor('acme');

  it('builds the assistant routes from the product name', () => {
    expect(r.assistant.full).toBe('/ask-acme/full');
    expect(r.assistant.base).toBe('/ask-acme');
    expect(r.assistant.history).toBe('/ask-acme/history');
    expect(r.notePreview('n1')).toBe('/preview/acme_notebooks/n1');
  });

  it('keeps the paths the spec spells out literally', () => {
    expect(r.needlbox.bookmarks).toBe('/needlbox/bookmarks/all');
    expect(r.needlbox.tags).toBe('/needlbox/tags/all');
    expect(r.needlbox.comments).toBe('/needlbox/comments/all');
    expect(r.needldrive).toBe('/apps/needldrive');
  });

  it('has the auth, pulse, settings and manager routes', () => {
    expect(r.auth).toEqual({
      root: '/auth',
      signIn: '/auth/signin',
      platformAccess: '/auth/platform-access',
      forgotPassword: '/auth/forgot-password',
    });
    expect(r.pulse.signIn).toBe('/pulse/auth/signin');
    expect(r.pulse.userSettings).toBe('/pulse/settings/user-settings');
    expect(r.pulse.whatsappVerification).toBe('/pulse/whatsapp-verification');
    expect(r.pulse.updatePortfolio).toBe('/pulse/update-portfolio');
    expect(r.settings.tags).toBe('/settings/tags');
    expect(r.settings.feedsRoot).toBe('/settings/feeds/root');
    expect(r.settings.storageDetail('gmail', 'mail')).toBe('/settings/storage/gmail/mail');
    expect(r.settings.storageEmpty).toBe('/settings/storage/empty');
    expect(r.settings.channelMembers('c 1')).toBe('/settings/channels/c%201/members');
    expect(r.settings.channelFeeds('c1')).toBe('/settings/channels/c1/feeds');
    expect(r.settings.createPortfolio).toBe('/settings/portfolios/create-portfolio');
    expect(r.managers.assistantsDashboard).toBe('/managers/assistants/dashboard');
    expect(r.managers.assistantsBuilder).toBe('/managers/assistants/builder');
    expect(r.managers.reportGenerationDashboard).toBe('/managers/report_generation/dashboard');
    expect(r.report.byId('42')).toBe('/report/42');
    expect(r.oauth.redirect).toBe('/oauth/redirect');
    expect(r.connect.websiteFollowed).toBe('/connect/website/followed');
    expect(r.connect.appFor('slack')).toBe('/connect/app/slack');
    expect(r.redirectDocument).toBe('/redirect/document');
    expect(r.search.full).toBe('/search/full');
  });

  it('has the feed home suffixes and content patterns', () => {
    expect([...FEED_HOME_SUFFIXES]).toEqual([
      'rss_news',
      'exchanges',
      'webclips',
      'chats',
      'emails',
      'socialmedia',
      'drives',
      'notes',
    ]);
    expect(r.feeds.homeSuffix('drives')).toBe('/feeds/home/drives');
    expect(r.feeds.links('bse_filings')).toBe('/feeds/bse_filings/links');
    expect(r.content('channels', 'c1', 'chats')).toBe('/channels/c1/chats');
    expect(r.content('apps', 'slack')).toBe('/apps/slack');
    expect(r.comments('feeds', 'home')).toBe('/feeds/home/comments');
    expect(r.preview('exchanges', 'a/b')).toBe('/preview/exchanges/a%2Fb');
  });

  it('exports the default product routes as ROUTES', () => {
    expect(ROUTES.assistant.full).toBe('/ask-needl/full');
    expect(ROUTES.home).toBe('/home');
  });
});

describe('routeHasNav', () => {
  it.each([
    '/feeds',
    '/feeds/home',
    '/feeds/home/drives',
    '/channels/c1/members',
    '/search',
    '/search/full',
    '/needlbox/bookmarks/all',
    '/apps/needldrive',
    '/notebooks',
    '/connect/rss',
    '/ask-needl',
    '/ask-needl/history',
    '/ask-needl/history/s1',
    '/feeds/home/?x=1',
  ])('shows the navigation on %s', (path) => {
    expect(routeHasNav(path, 'needl')).toBe(true);
  });

  it.each([
    '/',
    '/home',
    '/settings/tags',
    '/notifications',
    '/ask-needl/full',
    '/ask-acme',
    '/feedsx',
    '/managers/assistants/dashboard',
    '/report/1',
    '/pulse/settings/user-settings',
    '/auth/signin',
  ])('hides it on %s', (path) => {
    expect(routeHasNav(path, 'needl')).toBe(false);
  });

  it('follows the product for the assistant routes', () => {
    expect(routeHasNav('/ask-acme/history', 'acme')).toBe(true);
    expect(routeHasNav('/ask-needl/history', 'acme')).toBe(false);
  });
});

describe('isAuthPath', () => {
  it.each([
    ['/auth/signin', true],
    ['/auth/platform-access', true],
    ['/auth/forgot-password', true],
    ['/auth', true],
    ['/pulse/auth/signin', true],
    ['/pulse/settings/user-settings', false],
    ['/authx', false],
    ['/feeds/auth', false],
    ['/', false],
  ])('%s -> %s', (path, auth) => {
    expect(isAuthPath(path)).toBe(auth);
  });
});

describe('paths', () => {
  it('drops query, hash and trailing slashes', () => {
    expect(normalizePath('/feeds/home/?a=1#x')).toBe('/feeds/home');
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('feeds')).toBe('/feeds');
  });

  it('splits and decodes segments', () => {
    expect(pathSegments('/channels/Group%20A/members')).toEqual(['channels', 'Group A', 'members']);
    expect(pathSegments('/')).toEqual([]);
    expect(pathSegments('/bad/%E0%A4%A')).toEqual(['bad', '%E0%A4%A']);
  });
});
