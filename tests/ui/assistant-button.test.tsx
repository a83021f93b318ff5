import { describe, expect, it } from 'vitest';
import { assistantButtonMode } from '../../src/layout/assistant-button-rules';

const on = { ask_needl_copilot: true };
const mode = (path: string, flags: Record<string, boolean> = on, viewportWidth = 1600) =>
  assistantButtonMode(path, { product: 'needl', flags, viewportWidth });

describe('the floating assistant button against 001 §2', () => {
  it('is hidden on mobile, settings, notebooks, the assistants manager, dashboards, reports, needlbox, full screen and landing', () => {
    const hidden = {
      mobile: mode('/feeds/home', on, 400),
      settings: mode('/settings'),
      'user settings': mode('/settings/user-settings'),
      notebooks: mode('/notebooks/n1'),
      'a note preview (in notebooks)': mode('/preview/needl_notebooks/n1'),
      'assistants manager': mode('/managers/assistants'),
      dashboard: mode('/managers/assistants/dashboard'),
      'report full page': mode('/report/r1'),
      needlbox: mode('/needlbox/tags/all'),
      'full screen': mode('/ask-needl/full'),
      landing: mode('/landing'),
      'feature off': mode('/feeds/home', { ask_needl_copilot: false }),
    };
    for (const [where, value] of Object.entries(hidden)) expect(value, where).toBe('hidden');
  });

  it('is disabled on bookmarks, clipped reports, tags, comments, assistants, app sources and connect pages', () => {
    const disabled = {
      bookmarks: mode('/feeds/bookmarks'),
      'clipped reports': mode('/feeds/clipped_reports'),
      tags: mode('/channels/c1/tags'),
      comments: mode('/channels/c1/comments'),
      assistants: mode('/ask-needl/history'),
      'app sources': mode('/apps/needldrive'),
      'connect pages': mode('/connect/website'),
    };
    for (const [where, value] of Object.entries(disabled)) expect(value, where).toBe('disabled');
  });

  it('is enabled on feeds, search, previews and the apps list', () => {
    expect(mode('/feeds/home')).toBe('enabled');
    expect(mode('/feeds/b1')).toBe('enabled');
    expect(mode('/search')).toBe('enabled');
    expect(mode('/preview/reuters/d1')).toBe('enabled');
    expect(mode('/apps')).toBe('enabled');
  });
});
