import { TOAST_TEXT } from '../../contract/constants';
import { ErrorBody } from '../../contract/common';

/**
 * What a user reads when something fails. The server's own messages for what the user did
 * (a wrong password, an e-mail already taken, too many attempts: its ErrorBody codes other than
 * `internal`) are written for them and shown as they are. Everything else (a server fault, an
 * answer the client could not read, "POST /notifications/read failed with HTTP 422", a broken
 * network, a bug) reads as the spec's generic failure text (000 §8); the raw text goes to logs.
 */

/** An error as it reaches a tab from the worker: comlink keeps an ApiError's own fields. */
export type ApiErrorLike = Error & {
  status: number;
  code: string;
  issues?: Array<{ path: string; message: string }>;
};

const USER_CODES: ReadonlySet<string> = new Set(
  ErrorBody.shape.error.options.filter((code) => code !== 'internal'),
);

export function isApiErrorLike(error: unknown): error is ApiErrorLike {
  return (
    error instanceof Error &&
    typeof (error as Partial<ApiErrorLike>).status === 'number' &&
    typeof (error as Partial<ApiErrorLike>).code === 'string'
  );
}

/** An error the app raises with text written for the user (shown as it is). */
export class UserFacingError extends Error {
  readonly userFacing = true;
}

/** A lazily loaded part of the app that could not be fetched (a new deploy, a lost network). */
export function isModuleLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|Loading chunk|module script/i.test(
    message,
  );
}

export const MODULE_LOAD_TEXT =
  'A part of the app could not be loaded. Check your connection, then reload the page.';
export const BAD_ADDRESS_TEXT = 'This address is not valid. Check the link, or go back.';

/** The server's words for a request the user can fix; null for everything else. */
export function serverMessage(error: unknown): string | null {
  if (!isApiErrorLike(error)) return null;
  if (error.status < 400 || error.status >= 500 || !USER_CODES.has(error.code)) return null;
  return error.message || null;
}

/** The text to show for a failure: the server's words for the user, or the generic text. */
export function userMessage(error: unknown): string {
  if (error instanceof UserFacingError) return error.message;
  return serverMessage(error) ?? TOAST_TEXT.genericFailure;
}

/** The generic error screen's message (000 §2): what failed, in words for the user. */
export function errorScreenMessage(error: unknown): string {
  if (error instanceof URIError) return BAD_ADDRESS_TEXT;
  if (isModuleLoadError(error)) return MODULE_LOAD_TEXT;
  return userMessage(error);
}
