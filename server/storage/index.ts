import { join } from 'node:path';
import { createLocalStorage } from './local';
import { createS3Storage, type S3Settings } from './s3';
import type { FileStorage } from './storage';

export { checkKey, NotStored, readHead, TooLarge, type FileStorage } from './storage';
export { createLocalStorage } from './local';
export { createS3Storage, type S3Settings } from './s3';

/** Which storage serves files (config.ts `storage`). */
export type StorageSettings = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Settings);

export const createStorage = (s: StorageSettings): FileStorage =>
  s.kind === 'local' ? createLocalStorage(s.dir) : createS3Storage(s);

type Env = Record<string, string | undefined>;
const value = (env: Env, name: string) => env[name]?.trim() || undefined;

const bool = (name: string, raw: string | undefined, fallback: boolean) => {
  if (raw === undefined) return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
};

const endpointUrl = (name: string, raw: string | undefined) => {
  if (raw === undefined) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`${name} must be an http:// or https:// URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
};

/**
 * The storage from the environment (README "Configuration"):
 * - `STORAGE_URL=s3://[ACCESS_KEY:SECRET@]bucket[/prefix]?endpoint=http://...&region=...&forcePathStyle=true`;
 * - else `S3_BUCKET` with the usual AWS variables (`AWS_REGION` or `AWS_DEFAULT_REGION`,
 *   `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
 *   `S3_FORCE_PATH_STYLE`);
 * - else the local disk: `<dataDir>/files`.
 * A bad value throws an error naming the variable.
 */
export const readStorageSettings = (env: Env, dataDir: string): StorageSettings => {
  const raw = value(env, 'STORAGE_URL');
  const awsRegion = value(env, 'AWS_REGION') ?? value(env, 'AWS_DEFAULT_REGION');
  if (raw) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error(`STORAGE_URL must look like s3://bucket?region=..., got "${raw}"`);
    }
    if (url.protocol === 'file:') return { kind: 'local', dir: decodeURIComponent(url.pathname) };
    if (url.protocol !== 's3:' || !url.hostname) {
      throw new Error(`STORAGE_URL must be s3://bucket?... or file:///dir, got "${raw}"`);
    }
    const known = new Set(['endpoint', 'region', 'forcePathStyle']);
    for (const key of url.searchParams.keys()) {
      if (!known.has(key)) throw new Error(`STORAGE_URL: unknown parameter "${key}"`);
    }
    const prefix = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
    return {
      kind: 's3',
      bucket: url.hostname,
      endpoint: endpointUrl('STORAGE_URL endpoint', url.searchParams.get('endpoint') ?? undefined),
      region: url.searchParams.get('region') ?? awsRegion ?? 'us-east-1',
      forcePathStyle: bool(
        'STORAGE_URL forcePathStyle',
        url.searchParams.get('forcePathStyle') ?? undefined,
        false,
      ),
      accessKeyId: url.username ? decodeURIComponent(url.username) : undefined,
      secretAccessKey: url.password ? decodeURIComponent(url.password) : undefined,
      prefix: prefix ? `${prefix.replace(/\/+$/, '')}/` : '',
    };
  }
  const bucket = value(env, 'S3_BUCKET');
  if (bucket) {
    return {
      kind: 's3',
      bucket,
      endpoint: endpointUrl(
        'AWS_ENDPOINT_URL_S3',
        value(env, 'AWS_ENDPOINT_URL_S3') ?? value(env, 'AWS_ENDPOINT_URL'),
      ),
      region: awsRegion ?? 'us-east-1',
      forcePathStyle: bool('S3_FORCE_PATH_STYLE', value(env, 'S3_FORCE_PATH_STYLE'), false),
    };
  }
  return { kind: 'local', dir: join(dataDir, 'files') };
};
