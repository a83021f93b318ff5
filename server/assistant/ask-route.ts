import { randomUUID } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import {
  ASK_ERROR_PREFIX,
  ASK_PATH,
  AskQuery,
  type AskAnswer,
  type AskEvent,
  stoppedAnswer,
} from '../../contract/assistant';
import type { AppDeps, AppEnv } from '../context';
import { validationError } from '../errors';
import { requireAuth } from '../http/define';
import { userLimit } from '../http/user-limits';
import type { Answerer } from './answerer';
import { runAnswer, runSearch, type AskRun } from './ask-run';
import { resolveTarget } from './ask-scope';
import {
  ANSWER_BEAT_MS,
  beatAnswer,
  finishAnswer,
  startAnswer,
  type FinishedMessage,
} from './sessions';

/**
 * GET /api/ml/ask-{product}: a question answered as server-sent events, each `data:` line an
 * AskEvent (contract/assistant.ts), or one `data: [ERROR] ...` line on failure. Not a
 * catalogue endpoint (its answer is a stream), so it is registered by hand, like
 * /sync/live, and listed in the OpenAPI document beside them.
 *
 * Everything that can be refused is decided before the stream starts and answers JSON like
 * every call: the query (400 naming the field), the scope and the session (404). The question
 * is then stored, committed, before anything streams (sessions.ts `startAnswer`), so a server
 * that dies mid-answer leaves it, its answer read as stopped. Then the run (ask-run.ts)
 * streams, saying every few seconds that it is alive; the answer is written over the question's
 * message as done (then DONE is sent, so its message_id exists when the client sees it),
 * stopped when the client went away (the request's signal aborts the answerer and the
 * retrieval), or error.
 */

const FAILED = 'Something went wrong while answering. Please try again.';

/** The query string as AskQuery reads it: document_id repeated, every other key once. */
const queryOf = (all: Record<string, string[]>) =>
  Object.fromEntries(
    Object.entries(all).map(([key, values]) => [key, key === 'document_id' ? values : values[0]]),
  );

export function registerAskRoute(
  app: OpenAPIHono<AppEnv>,
  deps: Pick<AppDeps, 'product' | 'now' | 'log' | 'userLimits'>,
  answerer: Answerer,
): void {
  const path = `/api${ASK_PATH.replace('{product}', deps.product)}`;
  app.openAPIRegistry.registerPath({
    method: 'get',
    path,
    summary:
      'Server-sent events answering a question: INTERMEDIATE_STEP, SOURCES, GENERATED_ANSWER, ' +
      'GENERATING_CITATIONS, DONE (contract AskEvent), or a data line starting [ERROR]',
    operationId: 'ask',
    security: [{ token: [] }],
    request: { query: AskQuery },
    responses: {
      200: { description: 'An event stream', content: { 'text/event-stream': { schema: {} } } },
      400: { description: 'Invalid query: the message names the field' },
      401: { description: 'No token, or an unknown one' },
      404: { description: 'No such document, source, feed or session for this user' },
      429: { description: 'Too many answers at once or questions a minute for this user' },
    },
  });

  // Per user: answers streaming at once and questions a minute (429 past either).
  app.get(path, requireAuth, userLimit(deps, 'asks'), async (c) => {
    const userId = c.var.auth!.user.id;
    const parsed = AskQuery.safeParse(queryOf(c.req.queries()));
    if (!parsed.success) throw validationError(parsed.error.issues);
    const query = parsed.data;
    const db = c.var.db;
    const target = await resolveTarget(db, { userId, product: deps.product }, query);
    const messageId = randomUUID();
    const session = await startAnswer(
      db,
      userId,
      { id: query.session_id, prompt: query.prompt, type: target.type, metadata: target.metadata },
      { id: messageId, prompt: query.prompt, mode: query.mode },
      deps.now(),
    );
    const request = c.req.raw.signal;

    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      const stop = () =>
        controller.abort(new DOMException('the client closed the connection', 'AbortError'));
      stream.onAbort(stop);
      if (request.aborted) stop();
      else request.addEventListener('abort', stop, { once: true });

      const emit = async (event: AskEvent) => {
        if (!controller.signal.aborted) await stream.writeSSE({ data: JSON.stringify(event) });
      };
      const run: AskRun = {
        db,
        product: deps.product,
        now: deps.now,
        query,
        target,
        session,
        messageId,
        answerer,
        signal: controller.signal,
        emit,
        written: { text: '' },
      };
      // Alive, with what is written so far: should this server die, that much is kept. Every
      // way out of the run stores its end (`save`), which stops this.
      const alive = setInterval(() => {
        beatAnswer(db, messageId, run.written.text, deps.now()).catch((e: unknown) =>
          deps.log(`assistant: marking an answer alive failed: ${String(e)}`),
        );
      }, ANSWER_BEAT_MS);
      alive.unref();
      const save = (m: Omit<FinishedMessage, 'id' | 'prompt' | 'mode'>) => {
        clearInterval(alive);
        return finishAnswer(db, session, { id: messageId, ...m }, deps.now());
      };

      let data: AskAnswer;
      try {
        data = query.mode === 'search' ? await runSearch(run) : await runAnswer(run);
      } catch (err) {
        if (controller.signal.aborted) {
          const { text, sources } = run.written;
          const ids = { message_id: messageId, session_id: session.id };
          const kept = sources ? stoppedAnswer(text, sources, ids) : null;
          await save({ answer: text, data: kept, status: 'stopped', error: null });
          return;
        }
        deps.log(`assistant: answering failed: ${err instanceof Error ? err.stack : String(err)}`);
        await save({ answer: run.written.text, data: null, status: 'error', error: FAILED }).catch(
          (e: unknown) => deps.log(`assistant: storing a failed answer failed: ${String(e)}`),
        );
        await stream.writeSSE({ data: `${ASK_ERROR_PREFIX} ${FAILED}` });
        return;
      }
      try {
        await save({ answer: data.generated_answer.answer, data, status: 'done', error: null });
      } catch (err) {
        deps.log(`assistant: storing an answer failed: ${String(err)}`);
        await stream.writeSSE({ data: `${ASK_ERROR_PREFIX} ${FAILED}` });
        return;
      }
      await emit({ status: 'DONE', data });
    });
  });
}
