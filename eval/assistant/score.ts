import { readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The evaluation's questions (eval/assistant/questions/*.json) and how an answer is scored
 * against one (eval/README.md says the same in words).
 */

export const DECLINE = 'I could not find this in your data.';

export const ANSWERABLE_CATEGORIES = [
  'headcount',
  'headquarters',
  'founding',
  'revenue',
  'growth',
  'segments',
  'customers',
  'backlog',
  'debt',
  'competitors',
  'fiscal_year',
  'market_risk',
  'comparison',
] as const;
export const UNANSWERABLE_CATEGORIES = ['no_filing', 'unstated_metric', 'empty_filing'] as const;

const Question = z
  .object({
    id: z.string().min(1),
    companies: z.array(z.string()),
    category: z.string().min(1),
    question: z.string().min(1),
    answerable: z.boolean(),
    /** Facts, each a list of acceptable strings (answerable questions). */
    expect: z.array(z.array(z.string().min(1)).min(1)).optional(),
    /** A string of the filing that holds the answer (answerable questions; for recall). */
    passage: z.string().min(1).optional(),
  })
  .refine((q) => !q.answerable || (q.expect?.length ?? 0) > 0, {
    message: 'an answerable question needs `expect` (a list of facts)',
  });
export type Question = z.infer<typeof Question> & { file: string };

/** Every question of every file in `dir` (sorted by file name), checked; ids must be unique. */
export function readQuestions(dir: URL): Question[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const out: Question[] = [];
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
    } catch (err) {
      throw new Error(`${file}: not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const parsed = z.array(Question).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${file}: [${issue.path.join('.')}] ${issue.message}`);
    }
    out.push(...parsed.data.map((q) => ({ ...q, file })));
  }
  const seen = new Set<string>();
  for (const q of out) {
    if (seen.has(q.id)) throw new Error(`${q.file}: the id ${q.id} is used twice`);
    seen.add(q.id);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Text comparison

/** Case, whitespace, typographic quotes and dashes, zero-width characters: not differences. */
export const plain = (s: string): string =>
  s
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201f\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** plain, and "$51,200" is "51200": a "$" before a number and thousands separators dropped. */
export const factText = (s: string): string =>
  plain(s)
    .replace(/\$\s*(?=\d)/g, '')
    .replace(/(?<=\d),(?=\d{3}(?!\d))/g, '');

/** The answer as read: citation markers ([n]) and markdown's escapes and emphasis gone. */
export const answerText = (markdown: string): string =>
  markdown
    .replace(/(?<!\\)\[\d+(?:\s*,\s*\d+)*\]/g, '')
    .replace(/\*\*|__/g, '')
    .replace(/\\([\\`*_[\]<>#|~!.()+-])/g, '$1');

const wordy = /[\p{L}\p{N}]/u;

/**
 * `needle` in `hay` (both already normalised), not inside a longer word or number: "3000"
 * is not in "53000", "51.2" is not in "51.25".
 */
export const holdsFact = (hay: string, needle: string): boolean => {
  if (!needle) return false;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const before = hay[at - 1];
    const after = hay[at + needle.length];
    const startOk = !wordy.test(needle[0]) || before === undefined || !wordy.test(before);
    const endOk =
      !wordy.test(needle[needle.length - 1]) || after === undefined || !wordy.test(after);
    if (startOk && endOk) return true;
  }
  return false;
};

/**
 * What an answerable question expects that its companies' stored text does not hold (so no
 * answer could be right, or the passage never read): the question's fault, or the data's (a
 * section cut at the store's limit), printed as warnings beside the scores.
 */
export function unreachable(
  questions: Question[],
  stored: Array<{ company: string; text: string }>,
): string[] {
  const byCompany = new Map<string, { plain: string[]; facts: string[] }>();
  for (const { company, text } of stored) {
    const entry = byCompany.get(company) ?? { plain: [], facts: [] };
    entry.plain.push(plain(text));
    entry.facts.push(factText(text));
    byCompany.set(company, entry);
  }
  const out: string[] = [];
  for (const q of questions.filter((x) => x.answerable)) {
    const texts = q.companies.flatMap((c) => byCompany.get(c)?.plain ?? []);
    const facts = q.companies.flatMap((c) => byCompany.get(c)?.facts ?? []);
    if (texts.length === 0) {
      out.push(`${q.id}: none of its companies (${q.companies.join(', ')}) has a feed`);
      continue;
    }
    for (const fact of q.expect ?? []) {
      if (!fact.some((s) => facts.some((t) => holdsFact(t, factText(s))))) {
        out.push(`${q.id}: no acceptable string of ${JSON.stringify(fact)} is in the stored text`);
      }
    }
    if (q.passage && !texts.some((t) => t.includes(plain(q.passage!)))) {
      out.push(`${q.id}: its passage is not in the stored text`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// One question's outcome and its score

export type CitedPassage = {
  id: string;
  document_id: string;
  title: string;
  context: string;
  /** The company whose feed the document came from; null for any other document. */
  company: string | null;
};

export type Outcome = {
  q: Question;
  answer: string;
  quality: string | null;
  /** Unique by citation id within the answer. */
  citations: CitedPassage[];
  /** The texts of the passages the answerer read. */
  read: string[];
  /** A failed request or stream ([ERROR] line, no DONE). */
  error: string | null;
};

export type Score = {
  declined: boolean;
  /** Answerable: right (every fact in the answer and in a citation of the question's companies). */
  right: boolean;
  /** Answerable: the facts (their first acceptable string) that were not both said and cited. */
  missing: string[];
  /** Answerable answered with the decline. */
  falseDecline: boolean;
  /** Unanswerable: declined, with no citations. */
  declinedOk: boolean;
  /** Citations counted for precision (questions naming a company), and those of its companies. */
  cited: number;
  citedOwn: number;
  /** Answerable with a passage: the passage was among (or held) a passage read; null: not asked. */
  recall: boolean | null;
  high: boolean;
  /** Correct: right (answerable) or declined (unanswerable). */
  correct: boolean;
};

export function scoreOutcome(o: Outcome): Score {
  const { q } = o;
  const declined = o.error === null && o.answer.trim() === DECLINE;
  const own = new Set(q.companies);
  const ownCited = o.citations.filter((c) => c.company !== null && own.has(c.company));
  const said = factText(answerText(o.answer));
  const cited = ownCited.map((c) => factText(c.context));
  const missing: string[] = [];
  if (q.answerable) {
    for (const fact of q.expect ?? []) {
      const found = fact.some((s) => {
        const f = factText(s);
        return holdsFact(said, f) && cited.some((c) => holdsFact(c, f));
      });
      if (!found) missing.push(fact[0]);
    }
  }
  const right = q.answerable && o.error === null && !declined && missing.length === 0;
  const declinedOk = !q.answerable && declined && o.citations.length === 0;
  let recall: boolean | null = null;
  if (q.answerable && q.passage) {
    const want = plain(q.passage);
    recall = o.read.some((r) => {
      const got = plain(r);
      return (
        got.includes(want) || (got.length > 0 && got.length < want.length && want.includes(got))
      );
    });
  }
  const named = q.companies.length > 0;
  return {
    declined,
    right,
    missing,
    falseDecline: q.answerable && declined,
    declinedOk,
    cited: named ? o.citations.length : 0,
    citedOwn: named ? ownCited.length : 0,
    recall,
    high: o.quality === 'HIGH',
    correct: q.answerable ? right : declinedOk,
  };
}

// ---------------------------------------------------------------------------------------------
// The report

type Scored = { o: Outcome; s: Score };

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
const ratio = (n: number, d: number) => (d === 0 ? '-' : `${n}/${d} ${pct(n, d)}`);
const pad = (s: string, w: number) => (s.length >= w ? s : s + ' '.repeat(w - s.length));
const padStart = (s: string, w: number) => (s.length >= w ? s : ' '.repeat(w - s.length) + s);

const sum = (xs: Scored[], f: (x: Scored) => number) => xs.reduce((n, x) => n + f(x), 0);

function categoryRow(category: string, xs: Scored[]): string[] {
  const answerable = xs.filter((x) => x.o.q.answerable);
  const unanswerable = xs.filter((x) => !x.o.q.answerable);
  const withPassage = answerable.filter((x) => x.s.recall !== null);
  return [
    category,
    String(xs.length),
    answerable.length
      ? ratio(
          sum(answerable, (x) => +x.s.right),
          answerable.length,
        )
      : '-',
    answerable.length ? String(sum(answerable, (x) => +x.s.falseDecline)) : '-',
    unanswerable.length
      ? ratio(
          sum(unanswerable, (x) => +x.s.declinedOk),
          unanswerable.length,
        )
      : '-',
    ratio(
      sum(xs, (x) => x.s.citedOwn),
      sum(xs, (x) => x.s.cited),
    ),
    withPassage.length
      ? ratio(
          sum(withPassage, (x) => +x.s.recall!),
          withPassage.length,
        )
      : '-',
  ];
}

const table = (rows: string[][]): string[] => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r.map((cell, i) => (i === 0 ? pad(cell, widths[i]) : padStart(cell, widths[i]))).join('  '),
  );
};

export type Target = { name: string; value: number | null; goal: string; pass: boolean | null };

export function report(scored: Scored[]): { lines: string[]; targets: Target[] } {
  const order = [...ANSWERABLE_CATEGORIES, ...UNANSWERABLE_CATEGORIES] as readonly string[];
  const categories = [...new Set(scored.map((x) => x.o.q.category))].sort(
    (a, b) =>
      (order.indexOf(a) < 0 ? order.length : order.indexOf(a)) -
        (order.indexOf(b) < 0 ? order.length : order.indexOf(b)) || a.localeCompare(b),
  );
  const header = ['category', 'n', 'right', 'false declines', 'declined', 'precision', 'recall'];
  const rows = categories.map((c) =>
    categoryRow(
      c,
      scored.filter((x) => x.o.q.category === c),
    ),
  );
  const answerable = scored.filter((x) => x.o.q.answerable);
  const unanswerable = scored.filter((x) => !x.o.q.answerable);
  rows.push(
    categoryRow('answerable', answerable),
    categoryRow('unanswerable', unanswerable),
    categoryRow('all', scored),
  );
  const lines = table([header, ...rows]);
  lines.splice(1 + categories.length, 0, '-'.repeat(lines[0].length));

  const right = sum(answerable, (x) => +x.s.right);
  const falseDeclines = sum(answerable, (x) => +x.s.falseDecline);
  const declined = sum(unanswerable, (x) => +x.s.declinedOk);
  const cited = sum(scored, (x) => x.s.cited);
  const citedOwn = sum(scored, (x) => x.s.citedOwn);
  const high = scored.filter((x) => x.s.high);
  const highRight = sum(high, (x) => +x.s.correct);
  const errors = scored.filter((x) => x.o.error !== null).length;
  const quality = (name: string) => scored.filter((x) => x.o.quality === name).length;
  lines.push(
    '',
    `answer quality: HIGH ${quality('HIGH')}, LOW ${quality('LOW')}, GENERATIVE ${quality('GENERATIVE')}` +
      `; HIGH answers correct ${highRight}/${high.length}` +
      (errors ? `; ${errors} failed (no DONE)` : ''),
  );
  const share = (n: number, d: number) => (d === 0 ? null : n / d);
  const target = (
    name: string,
    value: number | null,
    goal: string,
    ok: (v: number) => boolean,
  ) => ({
    name,
    value,
    goal,
    pass: value === null ? null : ok(value),
  });
  const targets: Target[] = [
    target(
      'answerable right with a supporting citation',
      share(right, answerable.length),
      '>= 90%',
      (v) => v >= 0.9,
    ),
    target('unanswerable declined', share(declined, unanswerable.length), '= 100%', (v) => v >= 1),
    target('citation precision', share(citedOwn, cited), '>= 95%', (v) => v >= 0.95),
    target('false declines', share(falseDeclines, answerable.length), '<= 5%', (v) => v <= 0.05),
    target('HIGH answers right', share(highRight, high.length), '>= 95%', (v) => v >= 0.95),
  ];
  return { lines, targets };
}

export const targetLines = (targets: Target[]): string[] => {
  const w = Math.max(...targets.map((t) => t.name.length));
  return targets.map(
    (t) =>
      `${t.pass === null ? 'n/a ' : t.pass ? 'PASS' : 'FAIL'}  ${pad(t.name, w)}  ${padStart(
        t.value === null ? 'n/a' : `${(100 * t.value).toFixed(1)}%`,
        6,
      )}  (target ${t.goal})`,
  );
};

/** A failing question, for --verbose. */
export function failureLines({ o, s }: Scored): string[] {
  const what = o.q.answerable
    ? s.falseDecline
      ? 'false decline'
      : `missing ${s.missing.map((m) => JSON.stringify(m)).join(', ') || 'nothing'}`
    : s.declined
      ? 'declined but cited'
      : 'answered';
  const titles = [...new Set(o.citations.map((c) => c.title))];
  const answer = o.answer.replace(/\s+/g, ' ').trim();
  return [
    `- ${o.q.id} [${o.q.category}] ${o.q.question}`,
    `    ${o.error ? `ERROR ${o.error}` : what}; quality ${o.quality ?? '-'}` +
      (s.recall === false ? '; passage not read' : ''),
    `    answer: ${answer.length > 300 ? `${answer.slice(0, 300)}…` : answer}`,
    `    cited: ${titles.length ? titles.join(' | ') : '(nothing)'}`,
  ];
}
