import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionSummary } from '../../../../contract/assistant';
import { useShell } from '../../../shell-context';

export type HistorySessions = {
  /** null until the first answer. */
  sessions: SessionSummary[] | null;
  error: unknown;
  refresh: () => void;
  /** Takes a session out of the list at once (it was deleted); the next read confirms it. */
  drop: (sessionId: string) => void;
};

/**
 * The user's sessions for the history panel (ask.sessions): the worker answers from its mirror
 * at once and says 'changed' (store assistant_sessions) when the server's list, another tab or
 * a new answer changes it; every such event reads the list again. Reads never overlap: events
 * that come while one is in flight (a burst while a session is being answered) make one more.
 */
export function useHistorySessions(): HistorySessions {
  const { client } = useShell();
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reading = useRef(false);
  const again = useRef(false);
  const live = useRef(true);

  const read = useCallback(async () => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = true;
    try {
      do {
        again.current = false;
        try {
          const answer = await client.call('ask.sessions', {});
          if (!live.current) return;
          setSessions(answer.sessions);
          setError(null);
        } catch (failure) {
          if (!live.current) return;
          setError(failure);
        }
      } while (again.current);
    } finally {
      reading.current = false;
    }
  }, [client]);

  useEffect(() => {
    live.current = true;
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'assistant_sessions') void read();
    });
    void read();
    return () => {
      live.current = false;
      stop();
    };
  }, [client, read]);

  const drop = useCallback((sessionId: string) => {
    setSessions((list) => list?.filter((s) => s.id !== sessionId) ?? null);
  }, []);

  return { sessions, error, refresh: () => void read(), drop };
}

/**
 * The current time, moved on at each local midnight: a panel left open overnight regroups
 * Today's sessions under Yesterday without a reload.
 */
export function useToday(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    const timer = setTimeout(() => setNow(new Date()), midnight.getTime() - now.getTime() + 1000);
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}
