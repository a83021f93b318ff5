import type { AppDeps } from '../context';
import { ApiError } from '../errors';
import type { FileStorage } from '../storage';
import { uploadSettingsOf, type UploadSettings } from './settings';

/** What the upload routes need from the app's deps: storage, settings, the runner's kick. */
export type UploadDeps = {
  storage: FileStorage;
  settings: UploadSettings;
  kick: () => void;
};

export const uploadDepsOf = (deps: AppDeps): UploadDeps | null =>
  deps.storage
    ? {
        storage: deps.storage,
        settings: uploadSettingsOf(deps.uploads),
        kick: () => deps.uploadRunner?.kick(),
      }
    : null;

export const noStorage = () =>
  new ApiError(500, 'internal', 'file storage is not configured on this server');
