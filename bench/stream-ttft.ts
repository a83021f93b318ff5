import { createParser } from 'eventsource-parser';
import type { AskEvent } from '../contract/assistant';

/**
 * Time to first token of an answerer over HTTP: from sending GET /api/ml/ask-{product} to the
 * first GENERATED_ANSWER event read from the response (and to DONE, printed beside), as a
 * client sees them, one question after another. The questions are about the demo corpus's
 * subjects (server/demo/corpus*.ts: rates, inflation, results, deals, filings), which the
 * bench corpora share.
 */

export const QUESTIONS = [
  'What did the RBI decide about the repo rate?',
  'Why did the rupee weaken against the dollar?',
  'How fast did retail inflation grow and what drove it?',
  'What did the Fed signal about rate cuts?',
  'How many jobs did US payrolls add and what happened to unemployment?',
  'Which companies approved a share buyback?',
  'Who raised full-year guidance and why?',
  'What happened to Brent crude after OPEC+ extended output cuts?',
  'How fast did India GDP grow and which sectors led it?',
  'Why did government bond yields rise?',
  'Which companies reported a rise in quarterly net profit?',
  'Which company got USFDA approval for a generic heart drug?',
  'What did the phase 3 trial for the diabetes therapy show?',
  'Who won the streaming rights for the cricket league?',
  'What are the new disclosure rules for related-party deals?',
  'Which tax demand did the tribunal stay?',
  'What rating and target price did analysts give Kaveri Infotech?',
  'What are the risks to the earnings growth forecasts in the research notes?',
  'Which companies raised money through a qualified institutional placement?',
  'What did Northwind Semiconductor launch for data-centre inference?',
] as const;

export type AskTiming = {
  question: string;
  /** ms from the request to the first GENERATED_ANSWER (NaN: none came). */
  firstToken: number;
  /** ms from the request to DONE. */
  done: number;
  quality: string;
  /** Passages cited (0: the answerer found nothing to say). */
  citations: number;
  answerChars: number;
};

/**
 * The server limits for a time-to-first-token run: measureTtft asks 21 questions back to back
 * as one user, past LIMIT_ASKS_PER_MINUTE's default of 20.
 */
export const TTFT_USER_LIMITS = { asksPerMinute: 1000 };

/** Asks one question and times it; throws on an error status or an [ERROR] event. */
export async function timeAsk(opts: {
  base: string;
  product: string;
  token: string;
  question: string;
  query?: Record<string, string>;
}): Promise<AskTiming> {
  const q = new URLSearchParams({ prompt: opts.question, stream: 'true', ...opts.query });
  const started = performance.now();
  const res = await fetch(`${opts.base}/api/ml/ask-${opts.product}?${q}`, {
    headers: { token: opts.token, accept: 'text/event-stream' },
  });
  if (!res.ok || !res.body) throw new Error(`ask answered ${res.status}: ${await res.text()}`);
  const timing: AskTiming = {
    question: opts.question,
    firstToken: NaN,
    done: NaN,
    quality: '?',
    citations: 0,
    answerChars: 0,
  };
  let failure: string | null = null;
  const parser = createParser({
    onEvent(event) {
      if (event.data.startsWith('[ERROR]')) {
        failure = event.data;
        return;
      }
      const e = JSON.parse(event.data) as AskEvent;
      if (e.status === 'GENERATED_ANSWER' && Number.isNaN(timing.firstToken)) {
        timing.firstToken = performance.now() - started;
      } else if (e.status === 'DONE') {
        timing.done = performance.now() - started;
        timing.quality = e.data.answer_quality;
        timing.answerChars = e.data.generated_answer.answer.length;
        timing.citations = new Set(
          e.data.generated_answer.sentences.flatMap((s) => s.citations.map((c) => c.id)),
        ).size;
      }
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  if (failure) throw new Error(`ask failed: ${failure}`);
  return timing;
}

export async function signInToken(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} answered ${res.status}`);
  return ((await res.json()) as { id_token: string }).id_token;
}

export type TtftStats = { p50: number; p95: number; doneP50: number; timings: AskTiming[] };

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};

/**
 * Every question once, after one warm-up question (not counted: the first request also pays
 * for compiling the server's code paths). Prints one line per scope.
 */
export async function measureTtft(opts: {
  label: string;
  base: string;
  product: string;
  token: string;
  query?: Record<string, string>;
}): Promise<TtftStats> {
  await timeAsk({ ...opts, question: 'What did the companies report?' });
  const timings: AskTiming[] = [];
  for (const question of QUESTIONS) timings.push(await timeAsk({ ...opts, question }));
  const first = timings.map((t) => t.firstToken).filter((t) => !Number.isNaN(t));
  const stats: TtftStats = {
    p50: quantile(first, 0.5),
    p95: quantile(first, 0.95),
    doneP50: quantile(
      timings.map((t) => t.done),
      0.5,
    ),
    timings,
  };
  const low = timings.filter((t) => t.quality === 'LOW').length;
  const cited = timings.filter((t) => t.citations > 0).length;
  const slowest = timings.reduce((a, b) => (b.firstToken > a.firstToken ? b : a));
  console.log(
    `  ${opts.label}: first token p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms over ${first.length} questions (DONE p50 ${stats.doneP50.toFixed(1)} ms; ${cited} answers cite passages, ${low} are LOW; slowest: "${slowest.question}" ${slowest.firstToken.toFixed(1)} ms)`,
  );
  return stats;
}
