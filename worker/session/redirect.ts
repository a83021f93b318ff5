import type { Mirror } from '../mirror';
import { REDIRECT_KEY } from './store';

export type StoredRedirect = {
  store(path: string): Promise<void>;
  /** The stored path, once: taking it deletes it. */
  take(): Promise<string | null>;
};

/** Where to go after the next sign-in; kept across sign-in (a wipe leaves it). */
export function createStoredRedirect(deps: { mirror: Promise<Mirror> }): StoredRedirect {
  return {
    async store(path) {
      await (await deps.mirror).write([{ store: 'kv', key: REDIRECT_KEY, value: path }]);
    },
    async take() {
      const db = await deps.mirror;
      return (await db.update<string>('kv', REDIRECT_KEY, () => undefined)) ?? null;
    },
  };
}
