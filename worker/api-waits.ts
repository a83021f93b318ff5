import { abortError } from './api-errors';
import type { Clock } from './deps';

/** `work`, or an AbortError as soon as `signal` aborts (work left running is ignored). */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, label: string) {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortError(label));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(abortError(label));
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** Waits `ms` on `clock`; an abort rejects at once and clears the timer. */
export function sleepAbortable(
  clock: Clock,
  ms: number,
  signal: AbortSignal | undefined,
  label: string,
) {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(label));
      return;
    }
    const stop = () => {
      clock.clearTimeout(timer);
      reject(abortError(label));
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** A request with no token: settles only if aborted, and holds no timer meanwhile. */
export function neverSettles(signal: AbortSignal | undefined, label: string) {
  return new Promise<never>((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(abortError(label)), { once: true });
  });
}
