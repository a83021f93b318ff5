import { useEffect, useState } from 'react';
import type { Person } from '../../../contract/people';
import { useShell } from '../../shell-context';

/**
 * The tab's view of people, read from the worker's mirror (worker/domains/people.ts) and read
 * again whenever the worker says store 'people' changed (a write here, in another tab, from the
 * server, or a rollback). `error` is set when the read failed.
 */
export function usePeople(): { people: readonly Person[] | null; error: unknown } {
  const { client } = useShell();
  const [people, setPeople] = useState<readonly Person[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let alive = true;
    let latest = 0;
    const read = () => {
      const mine = ++latest;
      client.call('people.list', {}).then(
        (answer) => {
          if (!alive || mine !== latest) return;
          setError(null);
          setPeople(answer);
        },
        (failure: unknown) => alive && mine === latest && setError(failure),
      );
    };
    read();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'people') read();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client]);
  return { people, error };
}

/** One person (undefined until read, null when the user holds none of that id). */
export function usePerson(id: string): Person | null | undefined {
  const { client } = useShell();
  const [person, setPerson] = useState<Person | null | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    let latest = 0;
    const read = () => {
      const mine = ++latest;
      client.call('people.get', { id }).then(
        (answer) => alive && mine === latest && setPerson(answer),
        () => alive && mine === latest && setPerson(null),
      );
    };
    setPerson(undefined);
    read();
    const stop = client.onEvent((event) => {
      if (event.type !== 'changed' || event.store !== 'people') return;
      if (event.keys === null || event.keys.includes(id)) read();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, id]);
  return person;
}

/** A fresh id for a person made in this tab (the optimistic record's key). */
export const newPersonId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/** A person's name for the breadcrumbs and the page header (null: not on a person's page). */
export function usePersonName(id: string | null): string | undefined {
  const { client } = useShell();
  const [name, setName] = useState<{ id: string; name: string } | null>(null);
  useEffect(() => {
    if (id === null) return undefined;
    let alive = true;
    const read = () =>
      client.call('people.get', { id }).then(
        (person) => alive && setName(person ? { id, name: person.people_name } : null),
        () => {},
      );
    void read();
    const stop = client.onEvent((event) => {
      if (event.type === 'changed' && event.store === 'people') void read();
    });
    return () => {
      alive = false;
      stop();
    };
  }, [client, id]);
  return name !== null && name.id === id ? name.name : undefined;
}
