import { describe, expect, it } from 'vitest';
import { eventJson, readEventStream, type StreamEvent } from '../../contract/event-stream';

/** A body that delivers exactly these byte chunks, one per read, then ends (or fails). */
function body(chunks: (string | number[])[], fail?: Error) {
  const encoder = new TextEncoder();
  const left = [...chunks];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const c = left.shift();
      if (c !== undefined) {
        controller.enqueue(typeof c === 'string' ? encoder.encode(c) : Uint8Array.from(c));
      } else if (fail) controller.error(fail);
      else controller.close();
    },
  });
  return { stream };
}

/** A body that stays open: chunks are pushed by the test; `cancelled` settles on its cancel. */
function openBody() {
  const encoder = new TextEncoder();
  let push!: (text: string) => void;
  let onCancel!: (reason: unknown) => void;
  const cancelled = new Promise<unknown>((resolve) => (onCancel = resolve));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (text) => controller.enqueue(encoder.encode(text));
    },
    cancel: (reason) => onCancel(reason),
  });
  return { stream, push: (text: string) => push(text), cancelled };
}

async function all(stream: ReadableStream<Uint8Array>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of readEventStream(stream)) events.push(event);
  return events;
}

describe('readEventStream', () => {
  it('keeps a multi-byte character whole when its bytes arrive in different reads', async () => {
    // "€" is E2 82 AC and "😀" is F0 9F 98 80: each split across chunks.
    const { stream } = body([
      'data: 5 ',
      [0xe2],
      [0x82, 0xac, 0x20, 0xf0, 0x9f],
      [0x98],
      [0x80, 0x0a, 0x0a],
    ]);
    expect(await all(stream)).toEqual([{ data: '5 € 😀', event: undefined, id: undefined }]);
  });

  it('reads CRLF, CR and LF line ends, also when CR and LF arrive in different reads', async () => {
    const { stream } = body(['data: one\r', '\n\r\n', 'data: two\r\rdata: three\n\n']);
    expect((await all(stream)).map((e) => e.data)).toEqual(['one', 'two', 'three']);
  });

  it('skips comments and joins multi-line data with a newline', async () => {
    const { stream } = body([
      ': heartbeat\n\n',
      'event: update\nid: 7\ndata: {"a":\n',
      ':a comment between\ndata:1}\n',
      '\n',
    ]);
    expect(await all(stream)).toEqual([{ event: 'update', id: '7', data: '{"a":\n1}' }]);
  });

  it('reads a field split in the middle of its name, and drops an unfinished last event', async () => {
    const { stream } = body(['da', 'ta: fir', 'st\n', '\ndata: never finished\n']);
    expect((await all(stream)).map((e) => e.data)).toEqual(['first']);
  });

  it("throws the body's error when the connection fails", async () => {
    const { stream } = body(['data: kept\n\n', 'data: lost'], new TypeError('terminated'));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const { data } of readEventStream(stream)) seen.push(data);
      })(),
    ).rejects.toThrow('terminated');
    expect(seen).toEqual(['kept']);
  });

  it('cancels the body and throws the reason when the signal aborts during a read', async () => {
    const { stream, push, cancelled } = openBody();
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const { data } of readEventStream(stream, { signal: controller.signal })) {
        seen.push(data);
        if (data === 'first') controller.abort(new Error('stopped by the user'));
      }
    })();
    push('data: first\n\ndata: second\n\n');
    await expect(reading).rejects.toThrow('stopped by the user');
    expect(seen).toEqual(['first']);
    expect(await cancelled).toEqual(new Error('stopped by the user'));
  });

  it('cancels the body when the caller leaves the loop early', async () => {
    const { stream, push, cancelled } = openBody();
    push('data: [DONE]\n\n');
    for await (const { data } of readEventStream(stream)) {
      if (data === '[DONE]') break;
    }
    // The body is cancelled (the test times out otherwise).
    await cancelled;
  });

  it('fails an event longer than the limit instead of holding it', async () => {
    const { stream } = body(['data: ', 'x'.repeat(50), 'x'.repeat(50)]);
    await expect(
      (async () => {
        for await (const _ of readEventStream(stream, { maxEventChars: 64 })) void _;
      })(),
    ).rejects.toThrow(/buffer/i);
  });
});

describe('eventJson', () => {
  it('parses JSON data and answers undefined for anything else', () => {
    expect(eventJson('{"cursor":3}')).toEqual({ cursor: 3 });
    expect(eventJson('[ERROR] failed')).toBeUndefined();
  });
});
