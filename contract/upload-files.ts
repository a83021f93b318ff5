import {
  DEFAULT_MIME_TYPE,
  UPLOAD_FINAL_STATUSES,
  UPLOAD_MIME_BY_EXTENSION,
  type UploadConfig,
  type UploadFileType,
  type UploadStatus,
} from './uploads';

/**
 * The client's file checks (001 §5), shared by the assistant's attach and the drive's button,
 * and the file type the server stores (contract/uploads.ts holds the API's shapes).
 */

/** A file as the browser gives it (File, or a folder entry when `isFolder`). */
export type CandidateFile = { name: string; size: number; type: string; isFolder?: boolean };

/** The extension of a name, lower-cased, without the dot ('' when none). */
export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
};

/** The file's type, else one from its extension (md: text/markdown), else octet-stream. */
export const fileTypeOf = (file: { name: string; type: string }): string =>
  file.type ||
  UPLOAD_MIME_BY_EXTENSION[extensionOf(file.name) as UploadFileType] ||
  DEFAULT_MIME_TYPE;

const megabytes = (bytes: number) => bytes / 1048576;

/**
 * The first of the four checks of 001 §5 a file fails, in their order, or null:
 * 1 type, 2 size, 3 name suffix (a trailing .pdf ignored), 4 folder.
 */
export const fileProblem = (
  file: CandidateFile,
  config: Pick<
    UploadConfig,
    'file_types' | 'file_size_limit' | 'file_name_suffixes' | 'allow_folder_upload'
  >,
): string | null => {
  const type = fileTypeOf(file);
  if (config.file_types.length > 0 && !config.file_types.includes(type)) {
    return `File ${file.name} type: ${type} not allowed.`;
  }
  if (megabytes(file.size) > config.file_size_limit) {
    return `File ${file.name} size exceeds the limit of ${config.file_size_limit} MB.`;
  }
  if (config.file_name_suffixes.length > 0) {
    const stem = file.name.replace(/\.pdf$/i, '');
    if (!config.file_name_suffixes.some((suffix) => stem.endsWith(suffix))) {
      return `File ${file.name} name should end with one of the following suffixes: ${config.file_name_suffixes.join(', ')}.`;
    }
  }
  if (file.isFolder && !config.allow_folder_upload) return 'Folder upload is not allowed.';
  return null;
};

export type FileCheck<F extends CandidateFile> = {
  /** Files to upload, each with its type filled (fileTypeOf). */
  accepted: Array<F & { type: string }>;
  /** Messages to toast (3 s each; the report count message 2 s), in order. */
  errors: string[];
  /** Dropped files equal by name and size to one already there (or earlier in the drop). */
  duplicates: F[];
};

/**
 * What a drop (or a pick) of `dropped` files does next to the `existing` attachments
 * (001 §5): duplicates by name plus size are left out; past `file_count_limit` in all the
 * drop is refused ("You can only upload {N} files at a time."), or for a report the excess is
 * dropped ("Only {N} files can be uploaded for a report."); each remaining file is checked in
 * the spec's order and refused with its message.
 */
export const checkFiles = <F extends CandidateFile>(
  dropped: readonly F[],
  existing: ReadonlyArray<{ name: string; size: number }>,
  config: UploadConfig,
  mode: 'attach' | 'report' = 'attach',
): FileCheck<F> => {
  const seen = new Set(existing.map((f) => `${f.name}\u0000${f.size}`));
  const fresh: F[] = [];
  const duplicates: F[] = [];
  for (const file of dropped) {
    const key = `${file.name}\u0000${file.size}`;
    if (seen.has(key)) duplicates.push(file);
    else {
      seen.add(key);
      fresh.push(file);
    }
  }
  const errors: string[] = [];
  const limit = config.file_count_limit;
  let kept = fresh;
  if (existing.length + fresh.length > limit) {
    if (mode === 'attach') {
      return {
        accepted: [],
        errors: [`You can only upload ${limit} files at a time.`],
        duplicates,
      };
    }
    kept = fresh.slice(0, Math.max(0, limit - existing.length));
    errors.push(`Only ${limit} files can be uploaded for a report.`);
  }
  const accepted: Array<F & { type: string }> = [];
  for (const file of kept) {
    const problem = fileProblem(file, config);
    if (problem) errors.push(problem);
    else accepted.push({ ...file, type: fileTypeOf(file) });
  }
  return { accepted, errors, duplicates };
};

/** Whether polling may stop: every file COMPLETED or FAILED (001 §4). */
export const uploadsSettled = (files: ReadonlyArray<{ status: UploadStatus }>): boolean =>
  files.every((f) => UPLOAD_FINAL_STATUSES.includes(f.status));
