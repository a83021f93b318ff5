// Before any schema here: zod must be jitless under the app's CSP (contract/zod-jitless.ts).
import '../../contract/zod-jitless';
import { z } from 'zod';
import { OVERLAY_SHIFT_MAX_PERCENT, OVERLAY_SIZE_CAPS_PX } from '../../contract';
import { FEED_BUILDER_PAGES } from '../../contract/boards';
import { isTablet } from './breakpoints';
import { normalizePath } from './path';

/**
 * The overlay host's rules (000 §2 "Overlays", §5, §9; 001 §2; 002 §2). An overlay lives in the
 * query string: every parameter prefixed `overlay-`, with `overlay-type` naming the panel.
 */
export const OVERLAY_PREFIX = 'overlay-';

export type OverlayWidth = { min: number; max: number; current: number };
export type OverlayError =
  | 'Overlay Type not found!'
  | 'Overlay Params Schema not found!'
  | 'Invalid Overlay params supplied!';
export type OverlayParse =
  | { status: 'none' }
  | { status: 'ok'; type: string; params: Record<string, string>; width: OverlayWidth }
  | {
      status: 'error';
      /** The spec's text, shown in the panel. */
      error: OverlayError;
      /** What exactly is wrong, e.g. "overlay-source is required" (for logs and tooltips). */
      detail: string;
      log?: 'Unknown overlay type';
    };

export const OVERLAY_TYPES = (product: string) =>
  ['preview', `ask-${product}`, 'custom-feed', 'portfolio', 'report'] as const;

/** Default width percentages per type (000 §9): minimum / maximum / current. */
const WIDTHS = {
  preview: { min: 80, max: 80, current: 80 },
  ask: { min: 35, max: 80, current: 35 },
  'custom-feed': { min: 50, max: 80, current: 50 },
  portfolio: { min: 50, max: 80, current: 50 },
  report: { min: 60, max: 80, current: 80 },
} as const satisfies Record<string, OverlayWidth>;

type WidthKey = keyof typeof WIDTHS;

function widthKey(type: string): WidthKey | null {
  if (type.startsWith('ask-')) return 'ask';
  return Object.hasOwn(WIDTHS, type) && type !== 'ask' ? (type as WidthKey) : null;
}

/** The width percentages of an overlay type; the assistant overlay is any `ask-{product}`. */
export function overlayWidths(type: string): OverlayWidth {
  const key = widthKey(type);
  if (!key) throw new Error(`Unknown overlay type "${type}": no widths for it`);
  return { ...WIDTHS[key] };
}

/** A width clamped to the type's minimum and maximum; a non-number gives the default. */
export function clampWidth(type: string, percent: number): number {
  const { min, max, current } = overlayWidths(type);
  if (!Number.isFinite(percent)) return current;
  return Math.min(max, Math.max(min, percent));
}

/** The width to open an overlay at: the remembered width per type if any, clamped. */
export function overlayWidthFor(type: string, remembered?: number): number {
  return clampWidth(type, remembered ?? overlayWidths(type).current);
}

/**
 * Dragging the panel's left edge: moving it left (dx < 0) widens the panel. The result is a
 * percentage of the viewport clamped to the type's minimum and maximum.
 */
export function dragResize(
  startPercent: number,
  dxPx: number,
  viewportPx: number,
  type: string,
): number {
  if (!(viewportPx > 0)) return clampWidth(type, startPercent);
  return clampWidth(type, startPercent - (dxPx / viewportPx) * 100);
}

export type OverlaySize = 'small' | 'medium' | 'large' | 'variable';

/**
 * Pixels for a width: variable panels are a percentage of the viewport; small is 382 px;
 * medium and large are the percentage capped at 864 and 1088 px (000 §2, §9).
 */
export function widthPx(percent: number, viewportPx: number, size: OverlaySize = 'variable') {
  const byPercent = Math.round((percent * viewportPx) / 100);
  if (size === 'small') return Math.min(OVERLAY_SIZE_CAPS_PX.small, viewportPx);
  if (size === 'medium') return Math.min(OVERLAY_SIZE_CAPS_PX.medium, byPercent);
  if (size === 'large') return Math.min(OVERLAY_SIZE_CAPS_PX.large, byPercent);
  return byPercent;
}

/** How far the page content shifts beside an open overlay: at most 40% (000 §9). */
export function contentShiftPercent(overlayPercent: number): number {
  return Math.min(OVERLAY_SHIFT_MAX_PERCENT, overlayPercent);
}

/** Overlays are not shown on tablet and smaller screens. */
export function overlayVisible(viewportPx: number): boolean {
  return !isTablet(viewportPx);
}

export const isOverlayKey = (key: string) => key.startsWith(OVERLAY_PREFIX);

const isAt = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/**
 * Whether the assistant side panel may open (000 §2): only with ask_{product}_copilot on and
 * not in notebooks (the notebooks pages and the note preview /preview/{product}_notebooks/...).
 */
export function assistantOverlayAllowed(
  pathname: string,
  opts: { product: string; flags: Record<string, boolean> },
): boolean {
  const path = normalizePath(pathname);
  const inNotebooks = isAt(path, '/notebooks') || isAt(path, `/preview/${opts.product}_notebooks`);
  return opts.flags[`ask_${opts.product}_copilot`] === true && !inNotebooks;
}

/**
 * The overlay the page shows: the parsed one, except an assistant overlay where the assistant
 * panel is not allowed, which counts as no overlay at all (its parameters are then dropped).
 */
export function gateOverlay(
  overlay: OverlayParse,
  pathname: string,
  opts: { product: string; flags: Record<string, boolean> },
): OverlayParse {
  if (overlay.status !== 'ok' || overlay.type !== `ask-${opts.product}`) return overlay;
  return assistantOverlayAllowed(pathname, opts) ? overlay : { status: 'none' };
}

/** Closing an overlay removes every overlay- parameter and keeps the rest. */
export function withoutOverlayParams(search: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(search).filter(([key]) => !isOverlayKey(key)));
}

/** Links keep the overlay- parameters of the page they leave; the link's own ones win. */
export function keepOverlayParams(
  from: Record<string, unknown>,
  to: Record<string, unknown>,
): Record<string, unknown> {
  const kept = Object.entries(from).filter(([key]) => isOverlayKey(key));
  return { ...Object.fromEntries(kept), ...to };
}

/** The query that opens an overlay: `{type, source: 'x'}` -> `{'overlay-type', 'overlay-source'}`. */
export function overlaySearch(type: string, params: Record<string, string> = {}) {
  const entries = Object.entries(params).map(([key, value]) => [`${OVERLAY_PREFIX}${key}`, value]);
  return { ...Object.fromEntries(entries), [`${OVERLAY_PREFIX}type`]: type } as Record<
    string,
    string
  >;
}

const required = z.string({ message: 'is required' }).trim().min(1, { message: 'is required' });
const optional = z.string().optional();
const typeIs = (type: string) => z.literal(type, { message: `must be "${type}"` });

/** What each custom-feed page cannot open without. */
const CUSTOM_FEED_NEEDS: Partial<Record<(typeof FEED_BUILDER_PAGES)[number], string>> = {
  'feed-template-readonly': 'template-id',
  'feed-template-customize': 'template-id',
  'edit-feed': 'board-id',
  'edit-ai-feed': 'board-id',
  'review-feed-suggestion': 'suggestion-ids',
};

/**
 * One schema per type, over the parameters without their prefix. The spec's rules (000 §5,
 * 001 §2): preview needs source, category and deeplink; report needs report-id; portfolio
 * needs type=portfolio. "Ask-{product} overlay needs type=preview" is read as the assistant's
 * own form of that rule: its `type` must be `ask-{product}` (how 001 §2 opens it), with
 * `overlay-preview_askneedl` as an optional companion naming the preview it sits beside.
 * Requiring overlay-type=preview literally would make the assistant overlay unreachable, since
 * overlay-type=preview opens the preview panel.
 */
function schemaFor(type: string, product: string): z.ZodType | null {
  switch (type) {
    case 'preview':
      return z.object({
        type: typeIs('preview'),
        source: required,
        category: required,
        deeplink: required,
        category_tab: optional,
        access_key: optional,
        comments: optional,
        comment_id: optional,
        board_id: optional,
        channel_id: optional,
        global_channel_id: optional,
      });
    case `ask-${product}`:
      // preview_title: the document's title, so the chat can name what it asks about.
      return z.object({ type: typeIs(type), preview_askneedl: optional, preview_title: optional });
    case 'custom-feed':
      return z
        .object({
          type: typeIs('custom-feed'),
          page: z.enum(FEED_BUILDER_PAGES, { message: 'is not a custom-feed page' }).optional(),
          'template-id': optional,
          'board-id': optional,
          'search-template': optional,
          'suggestion-ids': optional,
        })
        .superRefine((value, ctx) => {
          const needs = value.page && CUSTOM_FEED_NEEDS[value.page];
          if (needs && !(value as Record<string, unknown>)[needs]) {
            ctx.addIssue({
              code: 'custom',
              path: [needs],
              message: `is required on ${value.page}`,
            });
          }
        });
    case 'portfolio':
      return z.object({ type: typeIs('portfolio') });
    case 'report':
      return z.object({ type: typeIs('report'), 'report-id': required });
    default:
      return null;
  }
}

/** The overlay- parameters without their prefix; numbers and booleans (parsed queries) as text. */
function overlayEntries(search: Record<string, unknown>): {
  params: Record<string, string>;
  bad: string[];
} {
  const params: Record<string, string> = {};
  const bad: string[] = [];
  for (const [key, value] of Object.entries(search)) {
    if (!isOverlayKey(key) || value === undefined || value === null) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      params[key.slice(OVERLAY_PREFIX.length)] = String(value);
    } else {
      bad.push(key);
    }
  }
  return { params, bad };
}

const invalid = (detail: string): OverlayParse => ({
  status: 'error',
  error: 'Invalid Overlay params supplied!',
  detail,
});

/**
 * Reads the overlay from the query. No overlay- parameter: no overlay. overlay-deeplink alone
 * implies the preview (002 §2). Other overlay- parameters without a type: "Overlay Type not
 * found!". A type no panel exists for: "Overlay Type not found!", logging "Unknown overlay
 * type". An assistant type of another product (ask-other): the panel exists but this product
 * has no schema for it, "Overlay Params Schema not found!". Parameters failing the type's
 * schema: "Invalid Overlay params supplied!".
 */
export function parseOverlay(search: Record<string, unknown>, product: string): OverlayParse {
  const { params, bad } = overlayEntries(search);
  if (Object.keys(params).length === 0 && bad.length === 0) return { status: 'none' };
  if (bad.length > 0) return invalid(`${bad.join(', ')} must be a single text value`);

  const type = params.type?.trim() || (params.deeplink ? 'preview' : '');
  if (!type) {
    return { status: 'error', error: 'Overlay Type not found!', detail: 'overlay-type is missing' };
  }
  if (!widthKey(type)) {
    return {
      status: 'error',
      error: 'Overlay Type not found!',
      detail: `overlay-type "${type}" is not one of ${OVERLAY_TYPES(product).join(', ')}`,
      log: 'Unknown overlay type',
    };
  }
  const schema = schemaFor(type, product);
  if (!schema) {
    return {
      status: 'error',
      error: 'Overlay Params Schema not found!',
      detail: `overlay-type "${type}" has no parameter schema in ${product}`,
    };
  }
  const parsed = schema.safeParse({ ...params, type });
  if (!parsed.success) {
    return invalid(
      parsed.error.issues
        .map((issue) => `${OVERLAY_PREFIX}${issue.path.join('.')} ${issue.message}`)
        .join('; '),
    );
  }
  const clean = parsed.data as Record<string, string | undefined>;
  const merged: Record<string, string> = { ...params };
  for (const [key, value] of Object.entries(clean)) if (value !== undefined) merged[key] = value;
  return { status: 'ok', type, params: merged, width: overlayWidths(type) };
}
