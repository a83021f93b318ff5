import {
  ASK_ERROR_PREFIX,
  ASK_PATH,
  AskEvent,
  HOME_ID,
  scopeType,
  type AskMode,
  type AskScope,
  type SessionMetadata,
} from '../../../contract/assistant';
import { eventJson, readEventStream } from '../../../contract/event-stream';
import type { Variant } from '../../../contract/worker-api';
import { isAbortError, messageOf, type ApiClient } from '../../api-client';
import type { QueryValue } from '../../api-request';

/**
 * One question's trip: GET /ml/ask-{product} with the scope as its query, answered as
 * server-sent events (contract/event-stream.ts). Each event is handed on as it comes; the
 * trip ends with DONE, an `[ERROR]` line, a failure, or an abort.
 */

export type AskRequest = {
  prompt: string;
  sessionId: string;
  scope: AskScope;
  mode: AskMode;
  pro: boolean;
  timezone: string;
  variant: Variant;
};

/** How a trip ended: 'aborted' is the caller's own doing (stop, a newer question, sign-out). */
export type StreamEnd = { kind: 'done' } | { kind: 'error'; message: string } | { kind: 'aborted' };

/** The scope's parameters, the most specific first as the server reads them. */
export function scopeParams(scope: AskScope) {
  const documents =
    scope.document_ids ??
    (scope.searchWithin === 'document' ? [scope.currentFeedOrDocumentId] : []);
  const board =
    scope.searchWithin !== 'document' && scope.currentFeedOrDocumentId !== HOME_ID
      ? scope.currentFeedOrDocumentId
      : null;
  return {
    document_id: documents,
    board_id: documents.length ? null : board,
    channel_id: scope.channel_id ?? null,
    source: scope.source ?? null,
    attachments_feed_id: scope.attachments_feed_id ?? null,
    notebook_id: scope.notebook_id ?? null,
  };
}

/** The query of GET /ml/ask-{product}: repeated document_id, absent parts left out. */
export function askQuery(r: AskRequest): Record<string, QueryValue | QueryValue[]> {
  const scope = scopeParams(r.scope);
  return {
    prompt: r.prompt,
    stream: 'true',
    timezone: r.timezone,
    pro: String(r.pro),
    session_id: r.sessionId,
    document_id: scope.document_id,
    board_id: scope.board_id,
    channel_id: scope.channel_id,
    source: scope.source,
    attachments_feed_id: scope.attachments_feed_id,
    notebook_id: scope.notebook_id,
    mode: r.mode,
  };
}

/** What a new session is about, as the server will type it (its own answer replaces this). */
export function scopeMetadata(scope: AskScope, product: string): SessionMetadata {
  const p = scopeParams(scope);
  return {
    // A chat with attachments asks over those documents (the server's type for it).
    // So does a notebook, over its notes.
    type: p.attachments_feed_id || p.notebook_id ? 'document' : scopeType(p, product),
    board_id: p.board_id,
    channel_id: p.channel_id,
    document_id: p.document_id,
    source: p.source,
    report_id: null,
    ...(p.attachments_feed_id ? { attachments_feed_id: p.attachments_feed_id } : {}),
  };
}

/**
 * Asks and reads the answer's events into `onEvent` until DONE, an `[ERROR]` line (its text is
 * the error), the end of the body (an error: the answer was cut off) or `signal`.
 */
export async function streamAsk(
  client: ApiClient,
  request: AskRequest,
  signal: AbortSignal,
  onEvent: (event: AskEvent) => void,
): Promise<StreamEnd> {
  try {
    const response = await client.send(
      {
        method: 'get',
        path: ASK_PATH,
        auth: true,
        query: askQuery(request),
        variant: request.variant,
        headers: { accept: 'text/event-stream' },
      },
      { signal },
    );
    if (!response.body) return { kind: 'error', message: 'The answer came with no body' };
    for await (const { data } of readEventStream(response.body, { signal })) {
      if (data.startsWith(ASK_ERROR_PREFIX)) {
        const message = data.slice(ASK_ERROR_PREFIX.length).trim();
        return { kind: 'error', message: message || 'The answer failed' };
      }
      const parsed = AskEvent.safeParse(eventJson(data));
      // An event this build does not know (a newer server's) carries nothing it can show.
      if (!parsed.success) continue;
      onEvent(parsed.data);
      // Nothing after DONE matters: leaving the loop releases the connection.
      if (parsed.data.status === 'DONE') return { kind: 'done' };
    }
    return { kind: 'error', message: 'The answer was cut off before it was complete' };
  } catch (error) {
    if (signal.aborted || isAbortError(error)) return { kind: 'aborted' };
    return { kind: 'error', message: messageOf(error) };
  }
}
