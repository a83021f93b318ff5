// Before any schema here: zod must be jitless under the app's CSP (contract/zod-jitless.ts).
import '../../contract/zod-jitless';
import { z } from 'zod';
import { MAX_QUERY_CHARS } from '../../contract/search';

/**
 * Search params stay plain strings in the URL (`?overlay-report-id=42`, not JSON): the router's
 * default JSON encoding would turn ids into numbers and quote strings, and the overlay schemas
 * and shared links expect what the spec writes.
 */
export type SearchParams = Record<string, string>;

export function parseSearch(searchStr: string): SearchParams {
  const params = new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr);
  const out: SearchParams = {};
  for (const [key, value] of params) out[key] = value;
  return out;
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'string' ? value : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const text = z.string().trim().max(2000).optional().catch(undefined);
const flag = z.enum(['true', 'false']).optional().catch(undefined);

/**
 * The app's search params (000 §2 "Navigation and query parameters"). Unknown keys pass through:
 * the overlay-* family is validated per overlay type by the overlay host, where its errors show.
 */
export const AppSearch = z.looseObject({
  search: text,
  search_type: text,
  search_page: text,
  exact: flag,
  spell_correct: text,
  channel_id: text,
  board_id: text,
  access_key: text,
  public_access_key: text,
  category: text,
  category_tab: text,
  searchTerm: text,
  global_channel_id: text,
  comment_id: text,
  comments: flag,
  redirect: text,
  // A search query may be as long as the search contract reads (longer is cut there).
  q: z.string().trim().max(MAX_QUERY_CHARS).optional().catch(undefined),
});
export type AppSearch = z.infer<typeof AppSearch>;

/** A malformed known key is dropped (each field catches) rather than failing the whole page. */
export function validateAppSearch(search: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(AppSearch.parse(search))) {
    if (typeof item === 'string') out[key] = item;
  }
  return out;
}

/** /auth/reset-password?token=...: a token of the wrong shape reads as no token at all. */
export const ResetPasswordSearch = z.looseObject({
  token: z.string().min(20).max(200).optional().catch(undefined),
});
