import { useCallback, useEffect, useRef, useState } from 'react';
import type { Note, Notebook } from '../../../contract/notebooks';
import type { PricingMessage } from '../../../contract/uploads';
import { useShell } from '../../shell-context';

/**
 * The tab's view of notebooks and notes, read from the worker's mirror
 * (worker/domains/notebooks.ts) and read again when the worker says 'notebooks' or 'notes'
 * changed (a write here, in another tab, or from the server). Writes go through the worker,
 * which applies them optimistically and rolls them back when the server refuses.
 */

type Read<T> = {
  data: T | null;
  error: unknown;
  /** The first answer came (data null then means there is none). */
  loaded: boolean;
  reload: () => void;
};

function useMirrorRead<T>(
  read: (() => Promise<T>) | null,
  key: string,
  stores: readonly string[],
): Read<T> {
  const { client } = useShell();
  const [state, setState] = useState<{ data: T | null; error: unknown; loaded: boolean }>({
    data: null,
    error: null,
    loaded: false,
  });
  const latest = useRef(0);
  const readRef = useRef(read);
  readRef.current = read;
  const run = useCallback(() => {
    const mine = ++latest.current;
    const current = readRef.current;
    if (!current) return;
    current().then(
      (data) => mine === latest.current && setState({ data, error: null, loaded: true }),
      (error: unknown) =>
        mine === latest.current && setState((s) => ({ data: s.data, error, loaded: s.loaded })),
    );
    // `key` stands for what is read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const watched = stores.join(',');
  useEffect(() => {
    setState({ data: null, error: null, loaded: false });
    run();
    const names = new Set(watched.split(','));
    return client.onEvent((event) => {
      if (event.type === 'changed' && names.has(event.store)) run();
    });
  }, [client, run, watched]);
  return { ...state, reload: run };
}

/** The user's notebooks, the default first (null until read). */
export function useNotebooks(): Read<Notebook[]> {
  const { client } = useShell();
  return useMirrorRead(() => client.call('notebooks.list', {}), 'notebooks', [
    'notebooks',
    'notes',
  ]);
}

/** The most notes one notebook page shows. */
export const NOTES_SHOWN = 500;

/** A notebook's notes, newest first (null until read). */
export function useNotes(notebookId: string): Read<Note[]> {
  const { client } = useShell();
  return useMirrorRead(
    () => client.call('notes.list', { notebook_id: notebookId, limit: NOTES_SHOWN }),
    `notes:${notebookId}`,
    ['notes'],
  );
}

/** One note (null while read or when there is none). */
export function useNote(id: string): Read<Note | null> {
  const { client } = useShell();
  return useMirrorRead(() => client.call('notes.get', { id }), `note:${id}`, ['notes']);
}

/** A fresh id for a notebook or note made in this tab (the optimistic record's key). */
export const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `n${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/**
 * The add_notebook gate (000 §6): `create(name)` asks the worker first (notebooks.gate), then
 * creates the notebook optimistically (the answer: its id) or, past the plan's limit, shows the
 * upsell (`upsell`, cleared by `dismiss`) and creates nothing (null).
 */
export function useCreateNotebook() {
  const { client } = useShell();
  const [upsell, setUpsell] = useState<PricingMessage | null>(null);
  const create = useCallback(
    async (name: string, onFailure: (failure: unknown) => void): Promise<string | null> => {
      const gate = await client.call('notebooks.gate', {});
      if (!gate.isEligible && gate.message) {
        setUpsell(gate.message);
        return null;
      }
      const id = newId();
      client.call('notebooks.create', { id, name }).catch(onFailure);
      return id;
    },
    [client],
  );
  return { create, upsell, dismiss: () => setUpsell(null) };
}
