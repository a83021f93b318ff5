import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking the OpenAI chat completions streaming protocol (POST
 * /v1/chat/completions with `stream: true`: `data: {"choices":[{"delta":{"content":...}}]}`
 * lines, then `data: [DONE]`), for the OpenAI answerer's tests and bench/stream. Tokens are
 * paced by elapsed time: each tick writes every token that is due in one write, so 2,000
 * tokens/s costs ~100 writes a second, not 2,000 timers. It records each request and how its
 * stream ended (finished, or the client went away: an aborted upstream).
 */

export type FakeOpenAiScript = {
  /** The reply's text, or one made from the request (its messages). */
  reply: string | ((request: FakeOpenAiRequest) => string);
  /** Characters per token (default 4, OpenAI's average); the reply is cut into such tokens. */
  tokenChars?: number;
  /** Pace; unset: every token at once. */
  tokensPerSecond?: number;
  /** How often a paced stream writes what is due (default 10 ms). */
  tickMs?: number;
  /** Answer this status (with an OpenAI-style error body) instead of a stream. */
  status?: number;
  errorMessage?: string;
  /** Cut the connection after this many tokens, before [DONE] (a broken upstream). */
  cutAfterTokens?: number;
};

export type FakeOpenAiMessage = { role: string; content: string };

export type FakeOpenAiRequest = {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; stream?: boolean; messages?: FakeOpenAiMessage[] } & Record<
    string,
    unknown
  >;
  /** streaming until the stream ends; aborted: the client closed it before [DONE]. */
  state: 'streaming' | 'finished' | 'aborted' | 'failed';
  /** Tokens written so far. */
  sent: number;
  /** Settles when the stream ends, with how. */
  outcome: Promise<'finished' | 'aborted' | 'failed'>;
};

export type FakeOpenAi = {
  /** e.g. http://127.0.0.1:PORT/v1: what LLM_BASE_URL would hold. */
  baseUrl: string;
  requests: FakeOpenAiRequest[];
  /** Replaces the script for the requests that follow. */
  setScript(script: FakeOpenAiScript): void;
  close(): Promise<void>;
};

const line = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const deltaLine = (content: string) =>
  line({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] });

/** The reply cut into tokens of `size` code points (never a surrogate pair split). */
export function tokenize(reply: string, size: number): string[] {
  return reply.match(new RegExp(`[\\s\\S]{1,${Math.max(1, Math.floor(size))}}`, 'gu')) ?? [];
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });

/** Waits for a full socket buffer to drain (back-pressure), or for the client to go away. */
const drained = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stream(
  res: ServerResponse,
  tokens: string[],
  script: FakeOpenAiScript,
  record: FakeOpenAiRequest,
  gone: () => boolean,
): Promise<'finished' | 'aborted' | 'failed'> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.write(line({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }));
  const limit = Math.min(tokens.length, script.cutAfterTokens ?? tokens.length);
  const rate = script.tokensPerSecond;
  const tick = script.tickMs ?? 10;
  const started = performance.now();
  while (record.sent < limit) {
    if (gone()) return 'aborted';
    const due = rate
      ? Math.min(limit, Math.floor(((performance.now() - started) / 1000) * rate) + 1)
      : limit;
    let out = '';
    for (; record.sent < due; record.sent++) out += deltaLine(tokens[record.sent]);
    if (out && !res.write(out)) await drained(res);
    if (record.sent < limit && rate) await sleep(tick);
  }
  if (gone()) return 'aborted';
  if (limit < tokens.length) {
    // What was written reaches the client first (an SSE comment flushes it), then the cut.
    await new Promise<void>((resolve) => res.write(': cut\n\n', () => resolve()));
    res.destroy();
    return 'failed';
  }
  res.end(line({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + 'data: [DONE]\n\n');
  return 'finished';
}

export async function startFakeOpenAi(opts: { script: FakeOpenAiScript }): Promise<FakeOpenAi> {
  let script = opts.script;
  const requests: FakeOpenAiRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      const text = await readBody(req);
      let body: FakeOpenAiRequest['body'] = {};
      try {
        body = JSON.parse(text) as FakeOpenAiRequest['body'];
      } catch {
        // recorded as an empty body; answered 400 below
      }
      let settle: (how: 'finished' | 'aborted' | 'failed') => void = () => undefined;
      const record: FakeOpenAiRequest = {
        path,
        headers: req.headers,
        body,
        state: 'streaming',
        sent: 0,
        outcome: new Promise((resolve) => (settle = resolve)),
      };
      requests.push(record);
      const end = (how: 'finished' | 'aborted' | 'failed') => {
        record.state = how;
        settle(how);
      };
      const error = (status: number, message: string) => {
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message, type: 'fake_error' } }));
        end('failed');
      };
      if (req.method !== 'POST' || path !== '/v1/chat/completions') return error(404, 'no route');
      if (body.stream !== true || !Array.isArray(body.messages)) {
        return error(400, 'stream: true and messages are required');
      }
      if (script.status && script.status !== 200) {
        return error(script.status, script.errorMessage ?? 'the fake model failed');
      }
      // A client that goes away closes the response before it ends: the upstream was aborted.
      let closed = false;
      res.once('close', () => {
        closed = !res.writableFinished;
      });
      const reply = typeof script.reply === 'function' ? script.reply(record) : script.reply;
      end(await stream(res, tokenize(reply, script.tokenChars ?? 4), script, record, () => closed));
    })().catch((err: unknown) => {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(next) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
