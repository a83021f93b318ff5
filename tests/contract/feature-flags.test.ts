import { describe, expect, it } from 'vitest';
import { defaultFlagValue, knownFlags, landingFlag } from '../../contract/user';

/** The one list of flag names (contract/feature-flags.ts) the server seeds and the UI reads. */

describe('feature flags', () => {
  it('names each flag once, with the product filled in', () => {
    const flags = knownFlags('acme');
    expect(new Set(flags).size).toBe(flags.length);
    expect(flags).toEqual(
      expect.arrayContaining([
        'ask_acme_copilot',
        'ask_acme_history',
        'ask_acme_upload',
        'ask_acme_dataset_selection_acme_universe',
        'ask_acme_full_screen',
        'acme_report',
        'is_pricing',
        'doc_mark_as_read',
        'website_unfollow',
        'my_data',
      ]),
    );
    expect(flags).not.toContain('needl_report');
    expect(flags).not.toContain('ask_needl_copilot');
  });

  it('knows every flag the landing rule reads: its features and every source family', () => {
    expect(knownFlags('needl')).toEqual(
      expect.arrayContaining([
        'search',
        'bookmarks',
        'tags',
        'comments',
        'assistants',
        'report_generation',
        'needl_report',
        'ask_needl_full_screen',
        'rss_news',
        'exchanges',
        'webclips',
        'chats',
        'emails',
        'socialmedia',
        'drives',
        'notes',
      ]),
    );
  });

  it('names the product-bound landing features after the product', () => {
    expect(landingFlag('report', 'acme')).toBe('acme_report');
    expect(landingFlag('ask_full_screen', 'acme')).toBe('ask_acme_full_screen');
    expect(landingFlag('search', 'acme')).toBe('search');
  });

  it('starts pricing and WhatsApp verification off, everything else on', () => {
    expect(defaultFlagValue('is_pricing')).toBe('off');
    expect(defaultFlagValue('is_pulse_whatsapp_verification_enabled')).toBe('off');
    expect(defaultFlagValue('search')).toBe('on');
    expect(defaultFlagValue('notes')).toBe('on');
    expect(defaultFlagValue('ask_acme_copilot')).toBe('on');
  });
});
