import { useId } from 'react';
import { HOME_ID, type ChatState } from '../../../contract/assistant';
import { useBoards } from '../../layout/use-entity-names';

/**
 * Where a new chat asks (the chat state's searchWithin and currentFeedOrDocumentId): all the
 * user's data, or within a feed, picked from their feeds. A document scope, set where a document
 * is open, shows as itself. Fixed once the session has messages: follow-ups ask where it began.
 */
export function ScopePicker(props: {
  state: ChatState;
  locked: boolean;
  onChange: (patch: Partial<ChatState>) => void;
}) {
  const { state, locked } = props;
  const boards = useBoards(state.searchWithin !== 'feed');
  const withinId = useId();
  const feedId = useId();
  if (state.webSearch) return null;
  const feedChosen = state.currentFeedOrDocumentId !== HOME_ID ? state.currentFeedOrDocumentId : '';

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
        {state.searchWithin === 'document' ? <option value="document">This document</option> : null}
      </select>
      {state.searchWithin === 'feed' ? (
        <>
          <label htmlFor={feedId} className="visually-hidden">
            Feed
          </label>
          <select
            id={feedId}
            value={feedChosen}
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
    </div>
  );
}
