import type { UploadStatus } from '../../../contract/uploads';

/** The drive's texts and formats (001 §3-5, 002 §2-3). No React, no DOM. */

/** Validation toasts last 3 s (001 §8-9). */
export const VALIDATION_TOAST_MS = 3000;

/** File names are cut to 10 characters (002 §2), with an ellipsis when cut. */
export const shortName = (name: string) => (name.length > 10 ? `${name.slice(0, 10)}…` : name);

/** Sizes in base 1024: B, KB, MB, GB. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** What a file's row says of its status ("FAILED is displayed as a processing error"). */
export function statusText(status: UploadStatus, progress: number, error: string | null): string {
  switch (status) {
    case 'UPLOADING':
      return `Uploading ${Math.round(progress)}%`;
    case 'UPLOADED':
      return 'Uploaded';
    case 'PENDING':
    case 'PROCESSING':
      return 'Processing';
    case 'COMPLETED':
      return 'Completed';
    case 'FAILED':
    case 'PROCESSING_ERROR':
      return error ? `Processing error: ${error}` : 'Processing error';
    case 'UPLOADING_ERROR':
      return error ?? 'Error uploading files';
  }
}
