import { extensionOf } from '../../../contract/upload-files';
import { UPLOAD_MIME_BY_EXTENSION } from '../../../contract/uploads';

/** An uploaded document's texts and rules in the preview (no React, no DOM). */

export const DOCUMENT_TEXT = {
  /** 000 §8. */
  downloading: 'Downloading',
  downloaded: 'Downloaded Successfully',
  downloadFailed: 'Download failed. Please try again.',
  /** "Download failed toast (2 s)", 000 §8. */
  downloadFailedMs: 2000,
  openingTab: 'Opening in New Tab',
  popupBlocked:
    'The new tab did not open. Turn off the "Block Pop-ups" option in your browser settings and try again.',
  /** "Pop-up blocked toast (5 s)", 000 §8. */
  popupBlockedMs: 5000,
  revoked: 'Link revoked: it no longer opens the document.',
  deleteExplained:
    'The file, its text and its summary are deleted: it is gone from your feeds, search and the assistant.',
} as const;

/** The prompt the copy falls back to when the clipboard refuses (as the assistant's copy). */
export const COPY_PROMPT = 'Copy to clipboard: Ctrl+C, Enter';

/** The user's own uploads live in their drive source, `{product}drive_{user id}`. */
export { isDriveSource as isUploadedDocument } from '../../../contract/document-files';

export const PDF_MIME_TYPE = UPLOAD_MIME_BY_EXTENSION.pdf;

/** The downloaded file's name: the title, with the type's extension when it has none. */
export function downloadName(title: string, mimeType: string): string {
  const name = title.trim().replace(/[\\/:*?"<>|]+/g, '_') || 'document';
  if (extensionOf(name)) return name;
  const extension = Object.entries(UPLOAD_MIME_BY_EXTENSION).find(
    ([, mime]) => mime === mimeType,
  )?.[0];
  return extension ? `${name}.${extension}` : name;
}
