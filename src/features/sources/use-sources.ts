import { useEffect, useState } from 'react';
import type { Categories, Source } from '../../../contract/sources';
import { useShell } from '../../shell-context';

/**
 * What the user follows, with each source's ingestion status (sources.list, from the worker's
 * mirror), re-read when the 'sources' store changes and, with `pollMs`, that often while shown
 * (ingestion runs on the server: the status moves without any change of the user's). Null until
 * the first answer.
 */
export function useFollowedSources(pollMs?: number): Source[] | null {
  const { client } = useShell();
  const [sources, setSources] = useState<Source[] | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      client.call('sources.list', {}).then(
        (answer) => alive && setSources(answer),
        () => alive && setSources((was) => was ?? []),
      );
    void load();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'sources') void load();
    });
    const timer = pollMs ? setInterval(() => void load(), pollMs) : undefined;
    return () => {
      alive = false;
      stop();
      clearInterval(timer);
    };
  }, [client, pollMs]);
  return sources;
}

/** The catalogue (sources.catalogue): categories and the sources the user may follow in each. */
export function useCatalogue(): {
  catalogue: Categories | null;
  error: unknown;
  reload: () => void;
} {
  const { client } = useShell();
  const [catalogue, setCatalogue] = useState<Categories | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let alive = true;
    const load = () =>
      client.call('sources.catalogue', {}).then(
        (answer) => {
          if (!alive) return;
          setCatalogue(answer);
          setError(null);
        },
        (failure: unknown) => alive && setError(failure),
      );
    void load();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'sources') void load();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, round]);
  return { catalogue, error, reload: () => setRound((n) => n + 1) };
}
