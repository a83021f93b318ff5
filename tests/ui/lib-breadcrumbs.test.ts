// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { breadcrumbs } from '../../src/lib/breadcrumbs';
import { pageHeader } from '../../src/lib/routes';

const crumbs = (path: string, names?: Record<string, string>) =>
  breadcrumbs(path, { product: 'needl', names });

describe('breadcrumbs (000 §2)', () => {
  it('starts at Home, one crumb per segment, the last bold and not a link', () => {
    expect(crumbs('/feeds/home/drives')).toEqual([
      { label: 'Home', href: '/', bold: false },
      { label: 'Feeds', href: '/feeds', bold: false },
      { label: 'My Data', href: '/feeds/home', bold: false },
      { label: 'Drives', href: null, bold: true },
    ]);
  });

  it('labels channels "Groups" and members "Members"', () => {
    expect(crumbs('/settings/channels/c1/members', { c1: 'Macro desk' })).toEqual([
      { label: 'Home', href: '/', bold: false },
      { label: 'Settings', href: '/settings', bold: false },
      { label: 'Groups', href: '/settings/channels', bold: false },
      { label: 'Macro desk', href: '/settings/channels/c1', bold: false },
      { label: 'Members', href: null, bold: true },
    ]);
    expect(crumbs('/settings/channels/c1/feeds').map((c) => c.label)).toEqual([
      'Home',
      'Settings',
      'Groups',
      'C1',
      'Feeds',
    ]);
  });

  it('titles the tags page "Tags Manager" and skips the settings segment', () => {
    expect(crumbs('/settings/tags')).toEqual([
      { label: 'Home', href: '/', bold: false },
      { label: 'Tags Manager', href: null, bold: true },
    ]);
  });

  it('keeps the settings segment on other settings pages', () => {
    expect(crumbs('/settings/storage').map((c) => c.label)).toEqual([
      'Home',
      'Settings',
      'Storage',
    ]);
  });

  it('shows source keys as their catalogue titles', () => {
    expect(crumbs('/feeds/bse_filings/links')).toEqual([
      { label: 'Home', href: '/', bold: false },
      { label: 'Feeds', href: '/feeds', bold: false },
      { label: 'BSE Filings', href: '/feeds/bse_filings', bold: false },
      { label: 'Links', href: null, bold: true },
    ]);
    expect(crumbs('/feeds/needlweb').at(-1)?.label).toBe('Needl Web');
    expect(crumbs('/apps/brand_new.app').at(-1)?.label).toBe('Brand new app');
  });

  it('uses given names for ids and encodes hrefs', () => {
    const trail = crumbs('/channels/a%20b/members', { 'a b': 'Credit team' });
    expect(trail.map((c) => c.label)).toEqual(['Home', 'Groups', 'Credit team', 'Members']);
    expect(trail[2].href).toBe('/channels/a%20b');
  });

  it('names a preview by its source and "Document", never by ids (issue 18)', () => {
    const trail = crumbs('/preview/rss_30767bf853384b0a/CdLg9xQ', {
      rss_30767bf853384b0a: 'Central Bank Wire',
    });
    expect(trail.map((c) => c.label)).toEqual(['Home', 'Preview', 'Central Bank Wire', 'Document']);
  });

  it('shows Home alone, bold, on "/"', () => {
    expect(crumbs('/')).toEqual([{ label: 'Home', href: null, bold: true }]);
  });

  it('ignores query and trailing slash', () => {
    expect(crumbs('/channels/?x=1')).toEqual([
      { label: 'Home', href: '/', bold: false },
      { label: 'Groups', href: null, bold: true },
    ]);
  });

  it.each([
    ['/ask-needl', ['Home', 'AskNeedl'], 'AskNeedl'],
    ['/ask-needl/history', ['Home', 'AskNeedl', 'History'], 'AskNeedl'],
    ['/settings/user-settings', ['Home', 'Settings', 'User Settings'], 'User Settings'],
    ['/custom-feed', ['Home', 'Custom Feed'], 'Custom Feed'],
    ['/settings/feeds', ['Home', 'Settings', 'Ingestion Status'], 'Ingestion Status'],
    [
      '/settings/feeds/root',
      ['Home', 'Settings', 'Ingestion Status', 'Feed Manager'],
      'Feed Manager',
    ],
    ['/managers/report_generation', ['Home', 'Managers', 'Report Generation'], 'Report Generation'],
    [
      '/pulse/settings/user-settings',
      ['Home', 'Pulse', 'Settings', 'User Settings'],
      'User Settings',
    ],
  ])('%s: the breadcrumb of a route reads as its page heading does', (path, trail, heading) => {
    expect(crumbs(path).map((c) => c.label)).toEqual(trail);
    expect(pageHeader({ pathname: path, product: 'needl' }).title).toBe(heading);
  });
});
