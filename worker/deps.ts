import type { Variant } from '../contract/worker-api';

/**
 * The browser capabilities the worker uses, as narrow interfaces. The entries pass the real
 * ones (fetch, indexedDB, navigator.locks, BroadcastChannel, timers); Node passes the doubles
 * of worker/testing.ts and fake-indexeddb. Nothing in worker/ reaches for a global instead.
 */

/**
 * A request body: JSON text, or raw bytes (an upload). A ReadableStream is read once, as the
 * request goes out (worker/api-upload.ts counts it for progress).
 */
export type BodyLike =
  string | Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;

export type RequestInitLike = {
  method: string;
  headers: Record<string, string>;
  body?: BodyLike;
  /** Cancels the request, and once it is answered the reading of its body. */
  signal?: AbortSignal;
  /** fetch requires it for a ReadableStream body (the request is sent while it is read). */
  duplex?: 'half';
};

/** The part of a Response the API client reads: the body as a stream, or all of it as text. */
export type ResponseLike = {
  status: number;
  /** The body as it arrives, chunk by chunk; null when there is none. */
  body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  /** Read for Retry-After on a 429; absent from some test doubles. */
  headers?: { get(name: string): string | null };
};

export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

export type TimerId = unknown;

export type Clock = {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
};

export type BroadcastChannelLike = {
  postMessage(data: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
};

export type BroadcastChannelFactory = (name: string) => BroadcastChannelLike;

export type LockLike = { name: string };

export type LockOptions = { ifAvailable?: boolean; signal?: AbortSignal };

/** `navigator.locks`: the callback runs while the lock is held; the lock goes when it settles. */
export type LockManagerLike = {
  request<T>(
    name: string,
    options: LockOptions,
    callback: (lock: LockLike | null) => Promise<T> | T,
  ): Promise<T>;
};

/** Where the 'online' event comes from (the worker global in a browser). */
export type NetworkEvents = {
  onOnline(listener: () => void): () => void;
};

export type WorkspaceDeps = {
  fetch: FetchLike;
  indexedDB: IDBFactory;
  clock: Clock;
  locks: LockManagerLike;
  broadcastChannel: BroadcastChannelFactory;
  randomId: () => string;
  /** The API base, e.g. `${location.origin}/api`. */
  baseUrl: string;
  /** PRODUCT: fills `{product}` in paths and names the session channel. */
  product: string;
  /** Sent as x-request-origin. Defaults to REQUEST_ORIGIN. */
  requestOrigin?: string;
  /** The IndexedDB database of the mirror. Defaults to `${product}-workspace`. */
  dbName?: string;
  network?: NetworkEvents;
  /** Where the worker's own diagnostics go (console.warn by default). */
  warn?: (message: string) => void;
};

/** The variant background calls carry when no tab asked for them. */
export const DEFAULT_VARIANT: Variant = 'main';

/** The real timers, as a Clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};
