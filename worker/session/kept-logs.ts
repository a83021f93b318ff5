import type { ApiClient } from '../api-client';
import type { Clock } from '../deps';
import type { Mirror } from '../mirror';
import { KEPT_LOGS_KEY } from './store';

const MAX_KEPT_LOGS = 20;

export type KeptLogs = {
  /** Keeps a log that had no token to go with (the last 20), best effort. */
  keep(logData: Record<string, unknown>): void;
  /** Sends the kept logs with `token`, each once. */
  flush(token: string): Promise<void>;
};

/** 000 §8 says log to the backend; with no token the log waits in kv for the next sign-in. */
export function createKeptLogs(deps: {
  mirror: Promise<Mirror>;
  clock: Clock;
  client: Pick<ApiClient, 'log'>;
}): KeptLogs {
  return {
    keep(logData) {
      const entry = { ...logData, logged_at: new Date(deps.clock.now()).toISOString() };
      void deps.mirror
        .then((db) =>
          db.update<Record<string, unknown>[]>('kv', KEPT_LOGS_KEY, (kept = []) =>
            [...kept, entry].slice(-MAX_KEPT_LOGS),
          ),
        )
        .catch(() => {
          // Best effort, like the log itself.
        });
    },
    async flush(token) {
      const db = await deps.mirror;
      const kept = await db.update<Record<string, unknown>[]>('kv', KEPT_LOGS_KEY, () => undefined);
      for (const logData of kept ?? []) await deps.client.log(logData, token);
    },
  };
}
