import { useSignals } from '@preact/signals-react/runtime';
import { useId } from 'react';
import { HOME_ID, type ChatState } from '../../../contract/assistant';
import { useBoards } from '../../layout/use-entity-names';
import { useShell } from '../../shell-context';
import { useNotebooks } from '../notebooks';

/**
 * Where a new chat asks (the chat state's searchWithin and currentFeedOrDocumentId): all the
 * user's data, within a feed, or within a notebook (its notes alone; flag notebooks), each
 * picked from the user's own. A document scope, set where a document is open, shows as itself.
 * Fixed once the session has messages: follow-ups ask where it began.
 */
export function ScopePicker(props: {
  state: ChatState;
  locked: boolean;
  onChange: (patch: Partial<ChatState>) => void;
}) {
  useSignals();
  const { state, locked } = props;
  const { state: shell } = useShell();
  const notebooksOn = shell.$flags.value.notebooks !== false;
  const boards = useBoards(state.searchWithin !== 'feed');
  const notebooks = useNotebooks();
  const withinId = useId();
  const feedId = useId();
  const notebookId = useId();
  if (state.webSearch) return null;
  const chosen = state.currentFeedOrDocumentId !== HOME_ID ? state.currentFeedOrDocumentId : '';

  return (
    <div className="scope-picker">
      <label htmlFor={withinId}>Ask within</label>
      <select
        id={withinId}
        value={state.searchWithin}
        disabled={locked}
        onChange={(event) => {
          const within = event.target.value as ChatState['searchWithin'];
          props.onChange({ searchWithin: within, currentFeedOrDocumentId: HOME_ID });
        }}
      >
        <option value="all">All my data</option>
        <option value="feed">A feed</option>
        {notebooksOn || state.searchWithin === 'notebook' ? (
          <option value="notebook">A notebook</option>
        ) : null}
        {state.searchWithin === 'document' ? <option value="document">This document</option> : null}
      </select>
      {state.searchWithin === 'feed' ? (
        <>
          <label htmlFor={feedId} className="visually-hidden">
            Feed
          </label>
          <select
            id={feedId}
            value={chosen}
            disabled={locked}
            onChange={(event) =>
              props.onChange({ currentFeedOrDocumentId: event.target.value || HOME_ID })
            }
          >
            <option value="">Choose a feed…</option>
            {(boards ?? [])
              .filter((b) => b.board_id !== HOME_ID)
              .map((b) => (
                <option key={b.board_id} value={b.board_id}>
                  {b.board_name}
                </option>
              ))}
          </select>
        </>
      ) : null}
      {state.searchWithin === 'notebook' ? (
        <>
          <label htmlFor={notebookId} className="visually-hidden">
            Notebook
          </label>
          <select
            id={notebookId}
            value={chosen}
            disabled={locked}
            onChange={(event) =>
              props.onChange({ currentFeedOrDocumentId: event.target.value || HOME_ID })
            }
          >
            <option value="">Choose a notebook…</option>
            {(notebooks.data ?? []).map((n) => (
              <option key={n.notebook_id} value={n.notebook_id}>
                {n.notebook_name}
              </option>
            ))}
          </select>
        </>
      ) : null}
    </div>
  );
}
