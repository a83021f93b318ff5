// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  MY_DATA_FAMILIES,
  afterSignInRoute,
  afterSignOutRoute,
  landingRoute,
  myDataRoute,
} from '../../src/lib/landing';

const ORDER = [
  'my_data',
  'search',
  'bookmarks',
  'tags',
  'comments',
  'assistants',
  'report_generation',
  'needl_report',
  'ask_needl_full_screen',
] as const;

const allOn = (): Record<string, boolean> => Object.fromEntries(ORDER.map((f) => [f, true]));

describe('landing route (000 §2)', () => {
  it('takes the first enabled feature, turning them off one by one', () => {
    const expected = [
      '/feeds/home',
      '/search',
      '/needlbox/bookmarks/all',
      '/needlbox/tags/all',
      '/needlbox/comments/all',
      '/managers/assistants/dashboard',
      '/managers/report_generation/dashboard',
      '/report',
      '/ask-needl/full',
      '/home',
    ];
    const flags = allOn();
    const seen: string[] = [landingRoute(flags, 'needl')];
    for (const flag of ORDER) {
      flags[flag] = false;
      seen.push(landingRoute(flags, 'needl'));
    }
    expect(seen).toEqual(expected);
  });

  it('goes to /home with no flags at all', () => {
    expect(landingRoute({}, 'needl')).toBe('/home');
  });

  it('follows the product in flag names and routes', () => {
    expect(landingRoute({ acme_report: true }, 'acme')).toBe('/report');
    expect(landingRoute({ needl_report: true }, 'acme')).toBe('/home');
    expect(landingRoute({ ask_acme_full_screen: true }, 'acme')).toBe('/ask-acme/full');
  });

  it('sends my data to the first enabled source family', () => {
    const flags: Record<string, boolean> = Object.fromEntries(
      MY_DATA_FAMILIES.map((f) => [f, true]),
    );
    flags.my_data = true;
    const seen: string[] = [];
    // Turned off in the list's order: the routes below say which family comes first.
    for (const family of MY_DATA_FAMILIES) {
      seen.push(landingRoute(flags, 'needl'));
      flags[family] = false;
    }
    seen.push(landingRoute(flags, 'needl'));
    expect(seen).toEqual([
      '/feeds/home/rss_news',
      '/feeds/home/exchanges',
      '/feeds/home/webclips',
      '/feeds/home/chats',
      '/feeds/home/emails',
      '/feeds/home/socialmedia',
      '/feeds/home/drives',
      '/feeds/home/notes',
      '/feeds/home',
    ]);
    expect(myDataRoute({ drives: true }, 'needl')).toBe('/feeds/home/drives');
  });

  it('ignores family flags while my_data is off', () => {
    expect(landingRoute({ rss_news: true, search: true }, 'needl')).toBe('/search');
  });
});

describe('after sign-in and sign-out', () => {
  it('sends pulse to its user settings, and to the pulse sign-in after logout', () => {
    expect(afterSignInRoute('pulse', allOn(), 'needl')).toBe('/pulse/settings/user-settings');
    expect(afterSignOutRoute('pulse')).toBe('/pulse/auth/signin');
  });

  it('sends the main app to the landing route', () => {
    expect(afterSignInRoute('main', { search: true }, 'needl')).toBe('/search');
    expect(afterSignInRoute('main', {}, 'needl')).toBe('/home');
  });

  it('sends the other variants to their base', () => {
    expect(afterSignInRoute('market-intelligence', allOn(), 'needl')).toBe('/market-intelligence');
    expect(afterSignInRoute('report-agent', allOn(), 'needl')).toBe('/report-agent');
    expect(afterSignInRoute('supercharging-askneedl', {}, 'needl')).toBe('/supercharging-askneedl');
    expect(afterSignInRoute('landing', {}, 'needl')).toBe('/landing');
  });

  it('signs every non-pulse variant out to /auth/signin', () => {
    for (const v of ['main', 'market-intelligence', 'report-agent', 'landing'] as const) {
      expect(afterSignOutRoute(v)).toBe('/auth/signin');
    }
  });
});
