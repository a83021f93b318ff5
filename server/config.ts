import { DEFAULT_PRODUCT } from '../contract/constants';
import type { LlmConfig } from './context';
import { DEFAULT_USER_LIMITS, type UserLimits } from './http/user-limits';
import { defaultMailFrom } from './mailer';
import { readStorageSettings, type StorageSettings } from './storage';
import { readUploadSettings, type UploadSettings } from './uploads';

/** What `npm start` reads from the environment (see README). */
export type Config = {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  product: string;
  smtpUrl?: string;
  mailFrom: string;
  idTokenTtlSeconds: number;
  distDir: string;
  /** Base of links in mail (password reset); the server's own URL when unset. */
  publicUrl?: string;
  /** Client addresses (for sign-in throttling) from x-forwarded-for: behind a proxy only. */
  trustProxy: boolean;
  /** The ingestion runner (server/content/runner.ts). */
  ingest: {
    /** FETCH_ALLOW_PRIVATE=1: outbound fetches may reach private and loopback addresses. */
    allowPrivate: boolean;
    intervalMs: number;
    leaseMs: number;
    /**
     * PRESET_BASE_URL: a filings preset with key K is read from `${presetBaseUrl}/${K}` instead
     * of its public feed (recorded responses, for tests and offline demos).
     */
    presetBaseUrl?: string;
  };
  /** LLM_BASE_URL (+ LLM_MODEL, LLM_API_KEY): the assistant's model; unset, it extracts. */
  llm?: LlmConfig;
  /** LIMIT_*: per-user limits (server/http/user-limits.ts). */
  userLimits: UserLimits;
  /** STORAGE_URL, S3_BUCKET + AWS_*: uploaded files (server/storage); DATA_DIR/files by default. */
  storage: StorageSettings;
  /** UPLOAD_*, PLAN_FREE_*, CUSTOMER_PORTAL_URL (server/uploads/settings.ts). */
  uploads: UploadSettings;
};

type Env = Record<string, string | undefined>;

const text = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

const integer = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
};

const flag = (env: Env, name: string): boolean => {
  const raw = text(env, name);
  if (raw === undefined || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new Error(`${name} must be 1 (or true) or 0 (or false), got "${raw}"`);
};

const baseUrl = (env: Env, name: string): string | undefined => {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new Error(`${name} must be an http:// or https:// URL without a query, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
};

/** LLM_MODEL names the model at LLM_BASE_URL; either without the other is a mistake. */
const llm = (env: Env): LlmConfig | undefined => {
  const url = baseUrl(env, 'LLM_BASE_URL');
  const model = text(env, 'LLM_MODEL');
  const apiKey = text(env, 'LLM_API_KEY');
  if (!url) {
    const stray = model ? 'LLM_MODEL' : apiKey ? 'LLM_API_KEY' : null;
    if (stray) throw new Error(`${stray} is set but LLM_BASE_URL is not`);
    return undefined;
  }
  if (!model) {
    throw new Error('LLM_MODEL must name the model to use at LLM_BASE_URL (e.g. gpt-4o-mini)');
  }
  return apiKey ? { baseUrl: url, model, apiKey } : { baseUrl: url, model };
};

/** LIMIT_*: each a whole number of at least 1 (a limit of 0 would refuse everyone). */
const userLimits = (env: Env): UserLimits => {
  const d = DEFAULT_USER_LIMITS;
  return {
    concurrentAsks: integer(env, 'LIMIT_CONCURRENT_ASKS', d.concurrentAsks, 1, 1000),
    asksPerMinute: integer(env, 'LIMIT_ASKS_PER_MINUTE', d.asksPerMinute, 1, 100_000),
    followsPerHour: integer(env, 'LIMIT_FOLLOWS_PER_HOUR', d.followsPerHour, 1, 1_000_000),
    liveConnections: integer(env, 'LIMIT_LIVE_CONNECTIONS', d.liveConnections, 1, 1000),
    uploadsInFlight: integer(env, 'LIMIT_UPLOADS_IN_FLIGHT', d.uploadsInFlight, 1, 1000),
  };
};

/** Parses the environment; a bad value throws an error naming the variable. */
export const readConfig = (env: Env = process.env): Config => {
  const product = text(env, 'PRODUCT') ?? DEFAULT_PRODUCT;
  // The product name lands in URL paths and flag names, so keep it to a path-safe word.
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(product)) {
    throw new Error(`PRODUCT must be lower-case letters, digits and dashes, got "${product}"`);
  }
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    dataDir: text(env, 'DATA_DIR') ?? './data',
    databaseUrl,
    product,
    smtpUrl: text(env, 'SMTP_URL'),
    mailFrom: text(env, 'MAIL_FROM') ?? defaultMailFrom(product),
    idTokenTtlSeconds: integer(env, 'ID_TOKEN_TTL_SECONDS', 900, 5, 86_400),
    distDir: text(env, 'DIST_DIR') ?? './dist',
    publicUrl: text(env, 'PUBLIC_URL')?.replace(/\/+$/, ''),
    trustProxy: flag(env, 'TRUST_PROXY'),
    ingest: {
      allowPrivate: flag(env, 'FETCH_ALLOW_PRIVATE'),
      intervalMs: integer(env, 'INGEST_INTERVAL_MS', 1000, 50, 3_600_000),
      leaseMs: integer(env, 'INGEST_LEASE_SECONDS', 60, 1, 86_400) * 1000,
      presetBaseUrl: baseUrl(env, 'PRESET_BASE_URL'),
    },
    llm: llm(env),
    userLimits: userLimits(env),
    storage: readStorageSettings(env, text(env, 'DATA_DIR') ?? './data'),
    uploads: readUploadSettings(env),
  };
};
