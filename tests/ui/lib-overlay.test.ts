// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  OVERLAY_TYPES,
  assistantOverlayAllowed,
  gateOverlay,
  clampWidth,
  contentShiftPercent,
  dragResize,
  keepOverlayParams,
  overlaySearch,
  overlayVisible,
  overlayWidthFor,
  overlayWidths,
  parseOverlay,
  widthPx,
  withoutOverlayParams,
} from '../../src/lib/overlay';

const preview = {
  'overlay-type': 'preview',
  'overlay-source': 'bse_filings',
  'overlay-category': 'exchanges',
  'overlay-deeplink': 'doc-1',
};

describe('overlay types and widths (000 §9)', () => {
  it('lists the five types with the product', () => {
    expect([...OVERLAY_TYPES('needl')]).toEqual([
      'preview',
      'ask-needl',
      'custom-feed',
      'portfolio',
      'report',
    ]);
  });

  it.each([
    ['preview', { min: 80, max: 80, current: 80 }],
    ['ask-needl', { min: 35, max: 80, current: 35 }],
    ['custom-feed', { min: 50, max: 80, current: 50 }],
    ['portfolio', { min: 50, max: 80, current: 50 }],
    ['report', { min: 60, max: 80, current: 80 }],
  ])('%s is %j', (type, widths) => {
    expect(overlayWidths(type)).toEqual(widths);
  });

  it('names an unknown type it has no widths for', () => {
    expect(() => overlayWidths('chart')).toThrow('Unknown overlay type "chart"');
    expect(() => overlayWidths('ask')).toThrow('Unknown overlay type "ask"');
  });

  it('clamps widths at the minimum and maximum', () => {
    expect(clampWidth('ask-needl', 20)).toBe(35);
    expect(clampWidth('ask-needl', 35)).toBe(35);
    expect(clampWidth('ask-needl', 50)).toBe(50);
    expect(clampWidth('ask-needl', 80)).toBe(80);
    expect(clampWidth('ask-needl', 95)).toBe(80);
    expect(clampWidth('report', 10)).toBe(60);
    expect(clampWidth('preview', 50)).toBe(80);
    expect(clampWidth('custom-feed', Number.NaN)).toBe(50);
  });

  it('opens at the remembered width, clamped, or the default', () => {
    expect(overlayWidthFor('ask-needl')).toBe(35);
    expect(overlayWidthFor('ask-needl', 60)).toBe(60);
    expect(overlayWidthFor('ask-needl', 99)).toBe(80);
    expect(overlayWidthFor('report')).toBe(80);
  });
});

describe('drag-resizing the left edge', () => {
  it('widens when dragged left and narrows when dragged right', () => {
    expect(dragResize(35, -200, 2000, 'ask-needl')).toBe(45);
    expect(dragResize(50, 200, 2000, 'ask-needl')).toBe(40);
  });

  it('clamps at the minimum and the maximum', () => {
    expect(dragResize(35, 400, 2000, 'ask-needl')).toBe(35);
    expect(dragResize(70, -2000, 2000, 'ask-needl')).toBe(80);
    expect(dragResize(60, 1000, 2000, 'report')).toBe(60);
    expect(dragResize(80, -100, 2000, 'preview')).toBe(80);
  });

  it('keeps the start width when the viewport has no size', () => {
    expect(dragResize(40, -100, 0, 'ask-needl')).toBe(40);
  });
});

describe('pixels', () => {
  it('sizes variable panels by percentage and caps sized ones at 382/864/1088 px', () => {
    expect(widthPx(35, 2000)).toBe(700);
    expect(widthPx(80, 2000, 'small')).toBe(382);
    expect(widthPx(80, 2000, 'medium')).toBe(864);
    expect(widthPx(40, 2000, 'medium')).toBe(800);
    expect(widthPx(80, 2000, 'large')).toBe(1088);
    expect(widthPx(50, 2000, 'large')).toBe(1000);
  });

  it('shifts the content by at most 40%', () => {
    expect(contentShiftPercent(35)).toBe(35);
    expect(contentShiftPercent(80)).toBe(40);
  });

  it('hides overlays on tablet and smaller screens', () => {
    expect(overlayVisible(1024)).toBe(false);
    expect(overlayVisible(768)).toBe(false);
    expect(overlayVisible(1025)).toBe(true);
    expect(overlayVisible(1920)).toBe(true);
  });
});

describe('overlay params in the query', () => {
  it('closing removes every overlay- parameter and keeps the others', () => {
    const search = {
      ...preview,
      'overlay-comments': 'true',
      'overlay-preview_askneedl': 'x',
      'overlay-report-id': '7',
      q: 'tesla',
      comments: true,
      search_page: 2,
    };
    expect(withoutOverlayParams(search)).toEqual({ q: 'tesla', comments: true, search_page: 2 });
  });

  it('links keep the overlay- parameters of the page they leave', () => {
    const from = { ...preview, q: 'old', category_tab: 'all' };
    expect(keepOverlayParams(from, { q: 'new' })).toEqual({ ...preview, q: 'new' });
    expect(keepOverlayParams(from, { 'overlay-deeplink': 'doc-2' })['overlay-deeplink']).toBe(
      'doc-2',
    );
  });

  it('builds the query that opens an overlay', () => {
    expect(overlaySearch('report', { 'report-id': '9' })).toEqual({
      'overlay-type': 'report',
      'overlay-report-id': '9',
    });
  });
});

describe('parseOverlay (000 §5)', () => {
  it('finds no overlay without overlay- parameters', () => {
    expect(parseOverlay({ q: 'x', comments: 'true' }, 'needl')).toEqual({ status: 'none' });
    expect(parseOverlay({}, 'needl')).toEqual({ status: 'none' });
  });

  it('opens a preview with source, category and deeplink', () => {
    const parsed = parseOverlay(
      { ...preview, 'overlay-comments': true, 'overlay-board_id': 12, q: 'x' },
      'needl',
    );
    expect(parsed).toEqual({
      status: 'ok',
      type: 'preview',
      params: {
        type: 'preview',
        source: 'bse_filings',
        category: 'exchanges',
        deeplink: 'doc-1',
        comments: 'true',
        board_id: '12',
      },
      width: { min: 80, max: 80, current: 80 },
    });
  });

  it('treats overlay-deeplink alone as a preview (002 §2)', () => {
    const { 'overlay-type': _type, ...rest } = preview;
    const parsed = parseOverlay(rest, 'needl');
    expect(parsed.status === 'ok' && parsed.type).toBe('preview');
  });

  it.each(['overlay-source', 'overlay-category', 'overlay-deeplink'])(
    'rejects a preview without %s',
    (key) => {
      const search: Record<string, unknown> = { ...preview, [key]: undefined };
      expect(parseOverlay(search, 'needl')).toEqual({
        status: 'error',
        error: 'Invalid Overlay params supplied!',
        detail: `${key} is required`,
      });
    },
  );

  it('rejects a blank preview source', () => {
    const parsed = parseOverlay({ ...preview, 'overlay-source': '  ' }, 'needl');
    expect(parsed.status === 'error' && parsed.error).toBe('Invalid Overlay params supplied!');
  });

  it('opens the assistant with overlay-type=ask-{product}, companion optional', () => {
    expect(parseOverlay({ 'overlay-type': 'ask-needl' }, 'needl')).toMatchObject({
      status: 'ok',
      type: 'ask-needl',
      width: { min: 35, max: 80, current: 35 },
    });
    expect(
      parseOverlay({ 'overlay-type': 'ask-needl', 'overlay-preview_askneedl': 'doc-1' }, 'needl'),
    ).toMatchObject({ status: 'ok', params: { type: 'ask-needl', preview_askneedl: 'doc-1' } });
    expect(parseOverlay({ 'overlay-type': 'ask-acme' }, 'acme')).toMatchObject({ status: 'ok' });
  });

  it("has no schema for another product's assistant", () => {
    expect(parseOverlay({ 'overlay-type': 'ask-other' }, 'needl')).toMatchObject({
      status: 'error',
      error: 'Overlay Params Schema not found!',
    });
  });

  it('opens a portfolio with type=portfolio', () => {
    expect(parseOverlay({ 'overlay-type': 'portfolio' }, 'needl')).toMatchObject({
      status: 'ok',
      type: 'portfolio',
      width: { min: 50, max: 80, current: 50 },
    });
  });

  it('needs overlay-report-id for a report', () => {
    expect(
      parseOverlay({ 'overlay-type': 'report', 'overlay-report-id': 5 }, 'needl'),
    ).toMatchObject({
      status: 'ok',
      params: { 'report-id': '5' },
      width: { min: 60, max: 80, current: 80 },
    });
    expect(parseOverlay({ 'overlay-type': 'report' }, 'needl')).toEqual({
      status: 'error',
      error: 'Invalid Overlay params supplied!',
      detail: 'overlay-report-id is required',
    });
  });

  it('opens the custom-feed builder on a known page', () => {
    expect(
      parseOverlay({ 'overlay-type': 'custom-feed', 'overlay-page': 'create-feed' }, 'needl'),
    ).toMatchObject({ status: 'ok', params: { page: 'create-feed' } });
    expect(parseOverlay({ 'overlay-type': 'custom-feed' }, 'needl')).toMatchObject({
      status: 'ok',
      width: { min: 50, max: 80, current: 50 },
    });
  });

  it('rejects an unknown custom-feed page and a page missing its id', () => {
    expect(
      parseOverlay({ 'overlay-type': 'custom-feed', 'overlay-page': 'nowhere' }, 'needl'),
    ).toMatchObject({ status: 'error', error: 'Invalid Overlay params supplied!' });
    expect(
      parseOverlay({ 'overlay-type': 'custom-feed', 'overlay-page': 'edit-feed' }, 'needl'),
    ).toEqual({
      status: 'error',
      error: 'Invalid Overlay params supplied!',
      detail: 'overlay-board-id is required on edit-feed',
    });
    expect(
      parseOverlay(
        { 'overlay-type': 'custom-feed', 'overlay-page': 'edit-feed', 'overlay-board-id': 'b1' },
        'needl',
      ),
    ).toMatchObject({ status: 'ok' });
  });

  it('reports "Overlay Type not found!" and logs an unknown type', () => {
    expect(parseOverlay({ 'overlay-type': 'chart' }, 'needl')).toEqual({
      status: 'error',
      error: 'Overlay Type not found!',
      detail:
        'overlay-type "chart" is not one of preview, ask-needl, custom-feed, portfolio, report',
      log: 'Unknown overlay type',
    });
  });

  it('reports "Overlay Type not found!" for overlay parameters without a type', () => {
    expect(parseOverlay({ 'overlay-source': 'sec' }, 'needl')).toEqual({
      status: 'error',
      error: 'Overlay Type not found!',
      detail: 'overlay-type is missing',
    });
  });

  it('rejects repeated or structured overlay values', () => {
    expect(parseOverlay({ ...preview, 'overlay-deeplink': ['a', 'b'] }, 'needl')).toEqual({
      status: 'error',
      error: 'Invalid Overlay params supplied!',
      detail: 'overlay-deeplink must be a single text value',
    });
  });
});

describe('assistant overlay gating (000 §2)', () => {
  const on = { ask_needl_copilot: true };
  const opts = (flags: Record<string, boolean>) => ({ product: 'needl', flags });

  it('allows the assistant panel only with ask_{product}_copilot on and outside notebooks', () => {
    expect(assistantOverlayAllowed('/feeds/home', opts(on))).toBe(true);
    expect(assistantOverlayAllowed('/feeds/home', opts({}))).toBe(false);
    expect(assistantOverlayAllowed('/feeds/home', opts({ ask_needl_copilot: false }))).toBe(false);
    expect(assistantOverlayAllowed('/notebooks', opts(on))).toBe(false);
    expect(assistantOverlayAllowed('/notebooks/home/chats/', opts(on))).toBe(false);
    expect(assistantOverlayAllowed('/preview/needl_notebooks/n1', opts(on))).toBe(false);
    expect(assistantOverlayAllowed('/notebooks-archive', opts(on))).toBe(true);
  });

  it('turns a refused assistant overlay into no overlay and leaves the others alone', () => {
    const ask = parseOverlay({ 'overlay-type': 'ask-needl' }, 'needl');
    expect(gateOverlay(ask, '/feeds/home', opts(on))).toBe(ask);
    expect(gateOverlay(ask, '/notebooks', opts(on))).toEqual({ status: 'none' });
    expect(gateOverlay(ask, '/feeds/home', opts({}))).toEqual({ status: 'none' });

    const portfolio = parseOverlay({ 'overlay-type': 'portfolio' }, 'needl');
    expect(gateOverlay(portfolio, '/notebooks', opts({}))).toBe(portfolio);
    const broken = parseOverlay({ 'overlay-type': 'report' }, 'needl');
    expect(gateOverlay(broken, '/notebooks', opts({}))).toBe(broken);
  });
});
