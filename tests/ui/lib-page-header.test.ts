// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pageHeader } from '../../src/lib/routes';

const header = (pathname: string, extra: Partial<Parameters<typeof pageHeader>[0]> = {}) =>
  pageHeader({ pathname, product: 'needl', ...extra });

describe('page headers', () => {
  it.each([
    ['/notifications', 'Notifications'],
    ['/search', 'Search'],
    ['/search/exchanges', 'Search'],
    ['/ask-needl', 'AskNeedl'],
    ['/ask-needl/full', 'AskNeedl'],
    ['/feeds/home', 'My Data'],
    ['/feeds/home/drives', 'My Data'],
    ['/feeds/needlweb', 'Needl Web'],
    ['/channels/home', 'Group Data'],
    ['/feeds/bse_filings', 'BSE Filings'],
    ['/apps/slack', 'Slack'],
    ['/settings/tags', 'Tags Manager'],
    ['/settings', 'Settings'],
    ['/home', 'Home'],
    ['/', 'Home'],
    ['/needlbox/bookmarks/all', 'Bookmarks'],
    ['/managers/report_generation/dashboard', 'Report Generation'],
  ])('%s is headed "%s"', (path, title) => {
    expect(header(path)).toEqual({ title });
  });

  it("uses the assistant's name when given", () => {
    expect(header('/ask-needl', { assistantName: 'Research Bot' }).title).toBe('Research Bot');
  });

  it('follows the product name', () => {
    expect(pageHeader({ pathname: '/ask-acme', product: 'acme' }).title).toBe('AskAcme');
    expect(pageHeader({ pathname: '/feeds/needlweb', product: 'acme' }).title).toBe('Acme Web');
  });

  it('shows the feed, channel, app or notebook name once known', () => {
    expect(header('/feeds/b1', { entityName: 'Banks' }).title).toBe('Banks');
    expect(header('/channels/c1', { entityName: 'Macro desk' }).title).toBe('Macro desk');
    expect(header('/apps/slack', { entityName: 'Team Slack' }).title).toBe('Team Slack');
    expect(header('/notebooks/n1', { entityName: 'Ideas' }).title).toBe('Ideas');
  });

  it('reads "{query} in {location}" with a query', () => {
    expect(header('/feeds/b1', { query: 'tesla', location: 'Banks' })).toEqual({
      title: 'tesla in Banks',
    });
    expect(header('/feeds/home', { query: '  tesla ' }).title).toBe('tesla in My Data');
    expect(header('/feeds/b1', { query: 'tesla', entityName: 'Banks' }).title).toBe(
      'tesla in Banks',
    );
  });

  it('names the search location from search_type', () => {
    expect(header('/search', { query: 'rates' }).title).toBe('rates in My Data');
    expect(header('/search', { query: 'rates', searchType: 'needl_web' }).title).toBe(
      'rates in Needl Web',
    );
    expect(header('/search', { query: 'rates', searchType: 'shared_data' }).title).toBe(
      'rates in Group Data',
    );
  });

  it('shows the original query as the sub-header when spelling was corrected', () => {
    expect(
      header('/search', {
        query: 'inflation',
        spellCorrectedFrom: 'inflaton',
        location: 'My Data',
      }),
    ).toEqual({ title: 'inflation in My Data', subtitle: 'inflaton' });
    expect(header('/search', { query: 'x', spellCorrectedFrom: 'x' }).subtitle).toBeUndefined();
  });

  it('ignores an empty query', () => {
    expect(header('/search', { query: '   ' })).toEqual({ title: 'Search' });
  });
});
