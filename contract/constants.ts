/**
 * Spec constants shared by server, worker and UI (spec 000 section 9 unless noted).
 * Values the spec spells out live here once; nothing else restates them.
 */

/** Default product name; the real one is configuration (PRODUCT), baked into the build. */
export const DEFAULT_PRODUCT = 'needl';

/** Session checks: one auth poll every 240 000 ms while a tab is visible (000 §4). */
export const AUTH_POLL_MS = 240_000;

/** API client retry policy (000 §7). */
export const API_RETRIES = 2;
export const API_RETRY_DELAY_MS = 300;
/** At most 2 retries with a fresh token after a 403 (000 §8). */
export const TOKEN_REFRESH_RETRIES = 2;

/** Onboarding flags are fresh for 20 s (000 §7). */
export const ONBOARDING_FLAGS_FRESH_MS = 20_000;
export const NOTIFICATIONS_PAGE_SIZE = 20;

export const SEARCH_DEBOUNCE_MS = 500;
export const SCROLL_DEBOUNCE_MS = 100;
export const PRINT_DELAY_MS = 500;
export const BACK_FALLBACK_MS = 200;

/** Toasts (000 §9). */
export const TOAST_DURATIONS_MS = {
  blank: 4000,
  error: 4000,
  success: 2000,
  loading: Infinity,
  custom: 4000,
} as const;
export const TOAST_LONG_MS = 8000;
export const TOAST_LIMIT = 20;

export const TOAST_TEXT = {
  genericFailure: 'Oops! Something Went Wrong. Please Try Again Later :(',
  assistantError: 'Uh-oh! Something went wrong',
  copied: 'Copied to clipboard',
} as const;

/** Side navigation (000 §4, §9). */
export const NAV_AUTO_CLOSE_MS = 500;
export const NAV_HIDE_MARGIN_PX = 16;
export const NAV_STATES = ['closed', 'close', 'open', 'opened', 'peek'] as const;

/** Overlays (000 §2, §9). Percent widths: minimum / maximum / current. */
export const OVERLAY_SIZE_CAPS_PX = { small: 382, medium: 864, large: 1088 } as const;
export const OVERLAY_SHIFT_MAX_PERCENT = 40;
export const OVERLAY_SPRING = { damping: 25, stiffness: 200 } as const;

/** Modal widths (000 §9). */
export const MODAL_WIDTHS_PX = { small: 300, default: 500, large: 800, xl: 1140 } as const;
export const LAYOUT_MAX_WIDTH_PX = 1440;

/** Badge cap: 99, shown as "99+". */
export const BADGE_MAX = 99;

/** Duration options for date ranges (000 §9). */
export const DURATION_OPTIONS = ['1d', '1w', '1M', '3M', '6M', '1y', '2y', '3y'] as const;

/** App variants, chosen from the first path segment and sent as app-type (000 §1). */
export const VARIANTS = [
  'main',
  'pulse',
  'market-intelligence',
  'report-agent',
  'supercharging-askneedl',
  'landing',
] as const;

/** Frontend identifier sent as x-request-origin. */
export const REQUEST_ORIGIN = 'web-app';

/** Request headers of every call (000 §7) plus the idempotency key of every mutation. */
export const HEADERS = {
  token: 'token',
  appType: 'app-type',
  requestOrigin: 'x-request-origin',
  idempotencyKey: 'idempotency-key',
} as const;

/** Support contact shown on the generic error screen. */
export const SUPPORT_EMAIL = 'support@needl.ai';
