import { readFileSync } from 'node:fs';
import type { AskAnswer, AskEvent } from '../../contract/assistant';
import { addDocs, follow, news, newUser } from './documents-helpers';
import type { Harness } from './harness';

/**
 * What the assistant suites share: real 10-K text (Item 1A, risk factors, from the fixture
 * tests/fixtures/sec-10k, copied from the shared data set; whole lines up to 45,000 characters)
 * stored as ingestion stores it, the ask stream called through the app and its events read
 * back from the `data:` lines, exactly as a client reads them.
 */

const item1a = (filing: string): string => {
  const path = new URL(`../fixtures/sec-10k/${filing}.json`, import.meta.url);
  // The data set's sections start with a stray '>' (a quoting artefact of its source).
  const text = (JSON.parse(readFileSync(path, 'utf8')) as { item1a: string }).item1a.replace(
    /^>/,
    '',
  );
  return text.slice(0, text.lastIndexOf('\n', 45_000) + 1);
};

export const NIKE_TITLE = 'NIKE Inc. 10-K 2023: Risk Factors';
export const WDC_TITLE = 'Western Digital Corp 10-K 2023: Risk Factors';
export const NIKE_TEXT = item1a('0000320187-23-000039');
export const WDC_TEXT = item1a('0000106040-23-000024');
export const NOT_FOUND = 'I could not find this in your data.';

/** Nike's and Western Digital's risk factors in the US filings source. */
export const writeFilings = (h: Harness) =>
  addDocs(h, 'demo_us_filings', [
    news('nike-10k', NIKE_TITLE, '', 30, {
      html: null,
      text: NIKE_TEXT,
      company_name: 'NIKE Inc.',
      category: '10-K',
    }),
    news('wdc-10k', WDC_TITLE, '', 40, {
      html: null,
      text: WDC_TEXT,
      company_name: 'Western Digital Corp',
      category: '10-K',
    }),
  ]);

/** A new user following the US filings (where the two 10-Ks are). */
export const filingsReader = async (h: Harness, name = 'Ada Lovelace') => {
  const user = await newUser(h, name);
  await follow(h, user.token, 'demo_us_filings');
  return user;
};

export const documentIdOf = async (h: Harness, title: string) =>
  (
    await h.db
      .selectFrom('documents')
      .select('id')
      .where('title', '=', title)
      .executeTakeFirstOrThrow()
  ).id;

export type AskParams = Record<string, string | string[]>;

export const askPath = (params: AskParams) => {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) q.append(key, v);
  }
  return `/api/ml/ask-needl?${q}`;
};

/** The `data:` lines of an event stream, in order. */
export const dataLines = (text: string): string[] =>
  text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) =>
      block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n'),
    );

export type Asked = {
  status: number;
  contentType: string | null;
  events: AskEvent[];
  /** Data lines that are not JSON (the `[ERROR] ...` line). */
  errors: string[];
  /** The JSON error of a refused request. */
  body: { error: string; message: string } | null;
  done: AskAnswer | null;
  /** The GENERATED_ANSWER chunks joined. */
  streamed: string;
};

/** GET /api/ml/ask-needl, read to its end. */
export async function ask(h: Harness, token: string | undefined, params: AskParams) {
  const res = await h.app.request(askPath(params), { headers: token ? { token } : {} });
  const text = await res.text();
  const out: Asked = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events: [],
    errors: [],
    body: null,
    done: null,
    streamed: '',
  };
  if (!out.contentType?.startsWith('text/event-stream')) {
    out.body = JSON.parse(text) as Asked['body'];
    return out;
  }
  for (const line of dataLines(text)) {
    if (line.startsWith('[ERROR]')) {
      out.errors.push(line);
      continue;
    }
    const event = JSON.parse(line) as AskEvent;
    out.events.push(event);
    if (event.status === 'GENERATED_ANSWER') out.streamed += event.data.answer_chunk;
    if (event.status === 'DONE') out.done = event.data;
  }
  return out;
}

/** The statuses of the events with runs of one status as one (INTERMEDIATE_STEP+...). */
export const statusRuns = (events: AskEvent[]) =>
  events.reduce<string[]>(
    (runs, e) => (runs[runs.length - 1] === e.status ? runs : [...runs, e.status]),
    [],
  );

export const lastSteps = (events: AskEvent[]) => {
  const steps = events.filter((e) => e.status === 'INTERMEDIATE_STEP');
  const last = steps[steps.length - 1];
  return last?.status === 'INTERMEDIATE_STEP' ? last.data.steps : [];
};
