import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';

/**
 * The one reader of server-sent events (text/event-stream), used by the worker's live signal,
 * the worker's assistant stream and the server's OpenAI-compatible client. The bytes are decoded
 * as a stream (a character split across network reads stays whole) and parsed by
 * eventsource-parser (LF, CR or CRLF line ends, comments, multi-line `data:`, `event:`, `id:`).
 */

/** One event: its `data` lines joined by "\n", and its `event` and `id` fields if it had them. */
export type StreamEvent = EventSourceMessage;

/** An event longer than this (characters buffered without an end) fails the stream. */
export const MAX_EVENT_CHARS = 4_000_000;

/**
 * The events of `body` as they arrive. The iteration ends with the body; a body that fails
 * (the connection dropped) throws its error; `signal` cancels the body and throws its reason.
 * Leaving the loop early (`break`, `return`, a throw in it) cancels the body too, so the
 * connection is released once the caller has what it wanted. An unfinished last event (no
 * blank line after it) is dropped, as the standard says.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  options: { signal?: AbortSignal; maxEventChars?: number } = {},
): AsyncGenerator<StreamEvent, void, undefined> {
  const { signal } = options;
  const reader = body
    .pipeThrough(decodeText())
    .pipeThrough(
      new EventSourceParserStream({ maxBufferSize: options.maxEventChars ?? MAX_EVENT_CHARS }),
    )
    .getReader();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      // A cancel in flight answers the pending read with `done`: the abort is the reason.
      signal?.throwIfAborted();
      if (done) return;
      yield value;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    // A no-op once the body has ended; otherwise the caller stopped early or it failed.
    reader.cancel().catch(() => undefined);
  }
}

/**
 * UTF-8 bytes to text, a character split across chunks kept whole (TextDecoderStream, whose
 * declared input type refuses the Uint8Array<ArrayBufferLike> a fetch body is typed with).
 */
function decodeText(): TransformStream<Uint8Array, string> {
  const decoder = new TextDecoder();
  return new TransformStream({
    transform(chunk, controller) {
      const text = decoder.decode(chunk, { stream: true });
      if (text) controller.enqueue(text);
    },
    flush(controller) {
      const text = decoder.decode();
      if (text) controller.enqueue(text);
    },
  });
}

/** An event's data as JSON, or undefined when it is not JSON. */
export function eventJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
