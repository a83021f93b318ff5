import {
  HOME_ID,
  universeId,
  type AskScope,
  type ChatState,
  type SessionMetadata,
} from '../../../contract/assistant';

/**
 * Where a question is asked (001 §1: all data, a feed, a channel, a source, a document, or the
 * web). A new chat asks where the chat state points (searchWithin and currentFeedOrDocumentId,
 * or the web when webSearch is on); a session that has messages keeps asking where it began (its
 * metadata), so a follow-up never changes scope.
 */

/** The scope of a new chat from the chat state. */
export function scopeOfState(state: ChatState, product: string): AskScope {
  if (state.webSearch) return { searchWithin: 'all', currentFeedOrDocumentId: universeId(product) };
  const id = state.currentFeedOrDocumentId || HOME_ID;
  if (state.searchWithin === 'document') {
    return { searchWithin: 'document', currentFeedOrDocumentId: id, document_ids: [id] };
  }
  // A notebook: its notes (the server answers it as a document scope over them).
  if (state.searchWithin === 'notebook') {
    return { searchWithin: 'all', currentFeedOrDocumentId: HOME_ID, notebook_id: id };
  }
  return { searchWithin: state.searchWithin, currentFeedOrDocumentId: id };
}

/** The scope a session began with, for its follow-ups. */
export function scopeOfSession(meta: SessionMetadata, product: string): AskScope {
  switch (meta.type) {
    case 'document': {
      const first = meta.document_id[0] ?? HOME_ID;
      return {
        searchWithin: 'document',
        currentFeedOrDocumentId: first,
        document_ids: meta.document_id,
        ...(meta.source ? { source: meta.source } : {}),
        // A chat with attachments keeps asking over them (assistant-attachments).
        ...(meta.attachments_feed_id ? { attachments_feed_id: meta.attachments_feed_id } : {}),
      };
    }
    case 'feed':
      return { searchWithin: 'feed', currentFeedOrDocumentId: meta.board_id ?? HOME_ID };
    case 'channel':
      return {
        searchWithin: 'feed',
        currentFeedOrDocumentId: meta.channel_id ?? HOME_ID,
        ...(meta.channel_id ? { channel_id: meta.channel_id } : {}),
      };
    case 'source':
      return {
        searchWithin: 'all',
        currentFeedOrDocumentId: HOME_ID,
        ...(meta.source ? { source: meta.source } : {}),
      };
    case 'web':
      return { searchWithin: 'all', currentFeedOrDocumentId: universeId(product) };
    default:
      return { searchWithin: 'all', currentFeedOrDocumentId: HOME_ID };
  }
}

/**
 * "No source selected" (001 §2 suggested questions): the chat state asks within a feed or a
 * document but names none (its id is empty or still the home feed's, which is all data, not a
 * feed or a document). All data (home) and the web are sources; so is a session that began
 * somewhere.
 */
export function noSourceSelected(state: ChatState): boolean {
  if (state.webSearch || state.searchWithin === 'all') return false;
  const id = state.currentFeedOrDocumentId.trim();
  return id === '' || id === HOME_ID;
}

/** What ask.suggestions is asked for the scope: the feed's or the document's questions. */
export function suggestionsQuery(scope: AskScope): { board_id?: string; document_id?: string } {
  if (
    scope.searchWithin === 'feed' &&
    !scope.channel_id &&
    scope.currentFeedOrDocumentId !== HOME_ID
  ) {
    return { board_id: scope.currentFeedOrDocumentId };
  }
  if (scope.searchWithin === 'document') return { document_id: scope.currentFeedOrDocumentId };
  return {};
}
