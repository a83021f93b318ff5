import { AskQuery, type AskAnswer, type AskEvent } from '../contract/assistant';
import { resolveTarget } from '../server/assistant/ask-scope';
import { retrieve } from '../server/assistant/retrieve';
import type { Db } from '../server/db/schema';
import {
  failureLines,
  readQuestions,
  report,
  scoreOutcome,
  targetLines,
  unreachable,
  type CitedPassage,
  type Outcome,
  type Question,
} from './assistant/score';
import { dataLines } from '../tests/server/assistant-fixture';
import { openWorkspace, PRODUCT, type Workspace } from './assistant/workspace';

/**
 * `npm run eval:assistant [-- --verbose] [-- --only <id part>]`: the assistant measured on ten
 * real 10-K filings beside the demo workspace's generated documents, no network and no model
 * (eval/README.md). Asks every question of eval/assistant/questions/*.json through the real
 * ask route in-process, reads the DONE event, and prints per category and overall how often
 * it is right, declines what the data does not hold, and cites the right company. Exits 0
 * whatever the scores (a measurement); 1 only when the setup fails.
 */

const QUESTIONS = new URL('./assistant/questions/', import.meta.url);
/** Questions asked at once (the extractive answerer streams with pauses: overlap them). */
const CONCURRENCY = 8;

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
if (onlyAt >= 0 && !only) {
  console.error('--only needs a part of a question id');
  process.exit(1);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The passages the answerer READ for a question: the retrieval the ask route runs, with the
 * target it builds for a question with no scope (all the user's data). The one place that
 * calls the retrieval, whose signature may change.
 */
async function passagesRead(db: Db, userId: string, prompt: string): Promise<string[]> {
  const query = AskQuery.parse({ prompt });
  const target = await resolveTarget(db, { userId, product: PRODUCT }, query);
  const found = await retrieve(db, target, query.prompt, new AbortController().signal);
  return found.passages.map((p) => p.text);
}

/** GET /api/ml/ask-needl?prompt=..., read to its end: DONE's data, or what went wrong. */
async function ask(ws: Workspace, prompt: string): Promise<AskAnswer | string> {
  const res = await ws.app.request(`/api/ml/ask-${PRODUCT}?${new URLSearchParams({ prompt })}`, {
    headers: { token: ws.token },
  });
  const text = await res.text();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return `${res.status} ${text.slice(0, 200)}`;
  }
  let done: AskAnswer | null = null;
  for (const line of dataLines(text)) {
    if (line.startsWith('[ERROR]')) return line;
    const event = JSON.parse(line) as AskEvent;
    if (event.status === 'DONE') done = event.data;
  }
  return done ?? 'the stream ended without DONE';
}

async function run(ws: Workspace, q: Question): Promise<Outcome> {
  const answered = await ask(ws, q.question);
  const read = await passagesRead(ws.db, ws.userId, q.question);
  if (typeof answered === 'string') {
    return { q, answer: '', quality: null, citations: [], read, error: answered };
  }
  const citations = new Map<string, CitedPassage>();
  for (const sentence of answered.generated_answer.sentences) {
    for (const c of sentence.citations) {
      if (citations.has(c.id)) continue;
      citations.set(c.id, {
        id: c.id,
        document_id: c.document_id,
        title: c.title_label,
        context: c.context,
        company: ws.companyOfDocument.get(c.document_id) ?? null,
      });
    }
  }
  return {
    q,
    answer: answered.generated_answer.answer,
    quality: answered.answer_quality,
    citations: [...citations.values()],
    read,
    error: null,
  };
}

/** `f` over `items`, `limit` at a time, results in the items' order. */
async function pool<T, R>(items: T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function main(): Promise<number> {
  const started = Date.now();
  const serverLog: string[] = [];
  let questions: Question[];
  let ws: Workspace;
  try {
    questions = readQuestions(QUESTIONS).filter((q) => !only || q.id.includes(only));
    ws = await openWorkspace((line) => serverLog.push(line));
  } catch (err) {
    console.error(`eval:assistant: setup failed: ${err instanceof Error ? err.message : err}`);
    if (serverLog.length) console.error(serverLog.slice(-20).join('\n'));
    return 1;
  }
  const files = [...new Set(questions.map((q) => q.file))];
  const setupDone = Date.now();
  console.log(
    `workspace: ${ws.documents.total} documents (${ws.documents.filings} filing sections of ` +
      `${ws.companies.length} companies, ${ws.documents.total - ws.documents.filings} of the demo ` +
      `workspace); set up in ${seconds(setupDone - started)}`,
  );
  console.log(
    `questions: ${questions.length} (${questions.filter((q) => q.answerable).length} answerable) ` +
      `from ${files.join(', ') || 'no file'}${only ? `, only ids holding "${only}"` : ''}`,
  );
  for (const warning of unreachable(questions, ws.storedText)) {
    console.log(`  warning: ${warning}`);
  }

  try {
    const outcomes = await pool(questions, CONCURRENCY, (q) => run(ws, q));
    const scored = outcomes.map((o) => ({ o, s: scoreOutcome(o) }));
    const asked = Date.now();
    console.log('');
    const { lines, targets } = report(scored);
    for (const line of lines) console.log(line);
    console.log('');
    for (const line of targetLines(targets)) console.log(line);
    if (verbose) {
      const failing = scored.filter((x) => !x.s.correct);
      console.log(`\nfailing questions (${failing.length}):`);
      for (const x of failing) for (const line of failureLines(x)) console.log(line);
    }
    console.log(
      `\ntook ${seconds(Date.now() - started)} (setup ${seconds(setupDone - started)}, ` +
        `${questions.length} questions ${seconds(asked - setupDone)})`,
    );
  } finally {
    await ws.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`eval:assistant failed: ${err instanceof Error ? err.stack : String(err)}`);
    process.exit(1);
  },
);
