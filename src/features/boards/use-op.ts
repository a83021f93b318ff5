import { useCallback, useEffect, useRef, useState } from 'react';
import type { StoreName } from '../../../contract/domains';
import type { OpInput, OpName, OpOutput } from '../../../contract/worker-api';
import { useShell } from '../../shell-context';

export type OpState<K extends OpName> = {
  data: OpOutput<K> | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
};

/**
 * One worker read for a screen: called on mount and whenever `key` changes, and again when the
 * worker says one of `stores` changed. An answer that arrives after a newer call started is
 * dropped, so a slow old answer never replaces a newer one. `input` null: nothing to read yet.
 */
export function useOp<K extends OpName>(
  op: K,
  input: OpInput<K> | null,
  opts: { key?: string; stores?: readonly StoreName[] } = {},
): OpState<K> {
  const { client } = useShell();
  const [state, setState] = useState<{
    data: OpOutput<K> | null;
    error: unknown;
    loading: boolean;
  }>({ data: null, error: null, loading: input !== null });
  const latest = useRef(0);
  const inputRef = useRef(input);
  inputRef.current = input;
  const key = opts.key ?? JSON.stringify(input);
  const stores = opts.stores?.join(',') ?? '';

  const run = useCallback(() => {
    const current = inputRef.current;
    const call = ++latest.current;
    if (current === null) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    setState((s) => ({ ...s, loading: true }));
    client.call(op, current).then(
      (data) => {
        if (call === latest.current) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (call === latest.current) setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
    // `key` stands for the input: a new input is a new read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, op, key]);

  useEffect(() => {
    run();
    if (!stores) return undefined;
    const watched = new Set(stores.split(','));
    return client.onEvent((event) => {
      if (event.type === 'changed' && watched.has(event.store)) run();
    });
  }, [client, run, stores]);

  return { ...state, reload: run };
}
