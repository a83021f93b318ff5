import { randomUUID } from 'node:crypto';
import { AskQuery, type AskAnswer } from '../../contract/assistant';
import { DEMO_ACCOUNT, findUserByEmail } from '../auth';
import type { Db } from '../db/schema';
import type { SeedContext } from '../domain';
import { runAnswer } from './ask-run';
import { resolveTarget } from './ask-scope';
import { createExtractiveAnswerer, NOT_FOUND } from './extractive';
import { suggestions } from './messaging';
import { openSession, saveMessage } from './sessions';

/**
 * The demo user's history is not empty: one session holding one question, the first of their
 * suggested questions that the extractive answerer answers from the demo documents, answered
 * by it exactly as the stream would (nothing here is written by hand).
 */
export async function seedAssistant(db: Db, { now, product }: SeedContext): Promise<void> {
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  if (!demo) return;
  const viewer = { userId: demo.id, product };
  const answerer = createExtractiveAnswerer({ chunkDelayMs: 0 });
  const { all } = await suggestions(db, viewer, {});
  for (const { question } of all) {
    const query = AskQuery.parse({ prompt: question });
    const target = await resolveTarget(db, viewer, query);
    const sessionId = randomUUID();
    const run = {
      db,
      product,
      now: () => now,
      query,
      target,
      // Made only once an answer is found (below); the run reads its id and history.
      session: {
        id: sessionId,
        user_id: demo.id,
        title: '',
        type: target.type,
        metadata: '{}',
        settings: '{}',
        created_at: '',
        updated_at: '',
      },
      messageId: randomUUID(),
      answerer,
      signal: new AbortController().signal,
      emit: async () => {},
      written: { text: '' },
    };
    const data: AskAnswer = await runAnswer(run);
    if (data.generated_answer.answer === NOT_FOUND) continue;
    const session = await openSession(
      db,
      demo.id,
      { id: sessionId, prompt: question, type: target.type, metadata: target.metadata },
      now,
    );
    await saveMessage(
      db,
      session,
      {
        id: run.messageId,
        prompt: question,
        mode: 'answer',
        answer: data.generated_answer.answer,
        data,
        status: 'done',
        error: null,
      },
      now,
    );
    return;
  }
}
