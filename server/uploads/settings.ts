/**
 * Upload limits, plans and the processing runner's pace (README "Configuration"). Limits come
 * from here into GET /upload/config (001 §3: "Limits on count, size and types come from the
 * server config"); the plan limits are the pricing gate's (one free plan by default).
 */
export type PlanLimits = {
  /** Bytes of uploaded files a user of the plan may keep. */
  storageBytes: number;
  /** Notebooks a user of the plan may have (the add_notebook gate). */
  notebooks: number;
};

export type UploadSettings = {
  /** UPLOAD_FILE_COUNT_LIMIT: files at once (default 10). */
  fileCountLimit: number;
  /** UPLOAD_FILE_SIZE_LIMIT_MB: one file's size in MB (default 50). */
  fileSizeLimitMb: number;
  /** UPLOAD_ALLOW_FOLDERS: folder drops (default off). */
  allowFolderUpload: boolean;
  /** PLAN_FREE_STORAGE_MB (default 1024), PLAN_FREE_NOTEBOOKS (default 50). */
  plans: Record<string, PlanLimits>;
  /** CUSTOMER_PORTAL_URL: the billing portal link; absent by default (no payment provider). */
  customerPortalUrl?: string;
  /** The processing runner (runner.ts). */
  runner: { intervalMs: number; leaseMs: number; concurrency: number };
};

export const DEFAULT_UPLOAD_SETTINGS: UploadSettings = {
  fileCountLimit: 10,
  fileSizeLimitMb: 50,
  allowFolderUpload: false,
  plans: { free: { storageBytes: 1024 * 1048576, notebooks: 50 } },
  runner: { intervalMs: 1000, leaseMs: 120_000, concurrency: 2 },
};

type Env = Record<string, string | undefined>;

const integer = (env: Env, name: string, fallback: number, min: number, max: number) => {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
};

/** The settings from the environment; a bad value throws an error naming the variable. */
export const readUploadSettings = (env: Env): UploadSettings => {
  const d = DEFAULT_UPLOAD_SETTINGS;
  const folders = env.UPLOAD_ALLOW_FOLDERS?.trim();
  if (folders && !['0', '1', 'true', 'false'].includes(folders)) {
    throw new Error(`UPLOAD_ALLOW_FOLDERS must be 1 (or true) or 0 (or false), got "${folders}"`);
  }
  const portal = env.CUSTOMER_PORTAL_URL?.trim();
  if (portal && !/^https?:\/\//.test(portal)) {
    throw new Error(`CUSTOMER_PORTAL_URL must be an http:// or https:// URL, got "${portal}"`);
  }
  return {
    fileCountLimit: integer(env, 'UPLOAD_FILE_COUNT_LIMIT', d.fileCountLimit, 1, 100),
    fileSizeLimitMb: integer(env, 'UPLOAD_FILE_SIZE_LIMIT_MB', d.fileSizeLimitMb, 1, 100_000),
    allowFolderUpload: folders === '1' || folders === 'true',
    plans: {
      free: {
        storageBytes:
          integer(env, 'PLAN_FREE_STORAGE_MB', d.plans.free.storageBytes / 1048576, 0, 1e9) *
          1048576,
        notebooks: integer(env, 'PLAN_FREE_NOTEBOOKS', d.plans.free.notebooks, 0, 1e9),
      },
    },
    customerPortalUrl: portal || undefined,
    runner: {
      intervalMs: integer(env, 'UPLOAD_INTERVAL_MS', d.runner.intervalMs, 50, 3_600_000),
      leaseMs: integer(env, 'UPLOAD_LEASE_SECONDS', d.runner.leaseMs / 1000, 1, 86_400) * 1000,
      concurrency: integer(env, 'UPLOAD_CONCURRENCY', d.runner.concurrency, 1, 64),
    },
  };
};

/** The settings of `deps` over the defaults. */
export const uploadSettingsOf = (s: Partial<UploadSettings> | undefined): UploadSettings => ({
  ...DEFAULT_UPLOAD_SETTINGS,
  ...Object.fromEntries(Object.entries(s ?? {}).filter(([, v]) => v !== undefined)),
});
