import { rngOf, pick, between, type Rng } from '../server/demo/corpus-text';
import { splitSentences } from '../server/assistant/sentences';
import { contentWords } from '../server/assistant/words';

/**
 * bench/stream's answer: the long markdown a model would write over the passages of its prompt,
 * made here from those passages so that its citations hold up. Sections of a heading, a
 * paragraph, a list, and in turn a table, a code block and a quote; every prose sentence is a
 * sentence of passage n, verbatim, followed by `[n]` (the OpenAI answerer keeps those). A few
 * sentences (DROPPED) cite a passage that does not say them, as models do: the server drops
 * those markers, so the final text differs from the streamed one in a few places and the page
 * has to re-render them after DONE. Deterministic for the same passages and length.
 */

export type PromptPassage = { n: number; title: string; text: string };

/** Sentences citing the wrong passage: their markers leave the final answer. */
export const DROPPED = 3;

/**
 * The numbered passages of the OpenAI answerer's system prompt (server/assistant/openai.ts
 * systemPrompt): `[n] title`, a `Source: ...` line, then the passage's text.
 */
export function promptPassages(system: string): PromptPassage[] {
  const at = system.indexOf('Passages:\n\n');
  if (at < 0) return [];
  const out: PromptPassage[] = [];
  for (const block of system.slice(at + 'Passages:\n\n'.length).split(/\n\n(?=\[\d+\] )/)) {
    const m = /^\[(\d+)\] ([^\n]*)\n[^\n]*\n([\s\S]*)$/.exec(block);
    if (m) out.push({ n: Number(m[1]), title: m[2], text: m[3].trim() });
  }
  return out;
}

type Claim = { n: number; sentence: string };

/** The passages' sentences worth citing: plain prose with a few content words. */
function claimsOf(passages: PromptPassage[]): Claim[] {
  const out: Claim[] = [];
  for (const p of passages) {
    for (const span of splitSentences(p.text)) {
      const sentence = p.text.slice(span.start, span.end).replace(/\s+/g, ' ');
      // Markdown-looking or bracketed text would change the blocks or read as a marker.
      if (/[[\]|`#*_>]/.test(sentence) || !/[.!?"]$/.test(sentence)) continue;
      if (contentWords(sentence).length >= 4) out.push({ n: p.n, sentence });
    }
  }
  return out;
}

const FILLER = [
  'The figures below come from the documents retrieved for this question.',
  'Each point is taken from one passage and cited beside it.',
  'Where the documents disagree, both readings are given.',
];

/**
 * An answer of at least `chars` characters (it stops after the section that reaches it).
 * Without passages it writes uncited prose (the answer a model gives from nothing).
 */
export function longAnswer(passages: PromptPassage[], chars: number, seed = 8): string {
  const r: Rng = rngOf(seed);
  const claims = claimsOf(passages);
  const cite = (c: Claim) => `${c.sentence} [${c.n}]`;
  const claim = (): string => (claims.length ? cite(pick(r, claims)) : pick(r, FILLER));
  const titles = passages.length ? passages.map((p) => p.title) : ['The documents'];
  // The sections that carry an unsupported citation, spread over the answer.
  const sectionsGuess = Math.max(DROPPED + 1, Math.round(chars / 1_700));
  const wrongAt = new Set(
    Array.from({ length: DROPPED }, (_, i) =>
      Math.floor(((i + 1) * sectionsGuess) / (DROPPED + 1)),
    ),
  );
  const wrong = (): string => {
    const c = pick(r, claims);
    const other = passages.find((p) => p.n !== c.n && !p.text.includes(c.sentence));
    return `${c.sentence} [${other?.n ?? c.n}]`;
  };

  const parts: string[] = [`${FILLER[0]} ${claim()} ${claim()}`];
  let length = parts[0].length;
  for (let k = 1; length < chars; k++) {
    const section: string[] = [`## ${k}. ${pick(r, titles)}`];
    const sentences = Array.from({ length: between(r, 3, 5) }, claim);
    if (wrongAt.has(k) && claims.length && passages.length > 1) sentences.push(wrong());
    section.push(sentences.join(' '));
    const ordered = k % 2 === 0;
    section.push(
      Array.from(
        { length: between(r, 3, 6) },
        (_, i) => `${ordered ? `${i + 1}.` : '-'} **Point ${i + 1}:** ${claim()}`,
      ).join('\n'),
    );
    if (k % 3 === 0) section.push(table(r, passages));
    else if (k % 3 === 1) section.push(codeBlock(r, k));
    else section.push(`> ${claim()}`);
    section.push(`${claim()} ${claim()}`);
    const text = section.join('\n\n');
    parts.push(text);
    length += text.length + 2;
  }
  return parts.join('\n\n');
}

/** A GFM table of the passages (no markers: a table row is not a claim). */
function table(r: Rng, passages: PromptPassage[]): string {
  const rows = Array.from({ length: between(r, 4, 7) }, () => {
    const p = passages.length ? pick(r, passages) : { n: 0, title: 'None', text: '' };
    return `| ${p.title.replace(/\|/g, '/')} | ${p.n} | ${between(r, 40, 4200)} | ${between(r, 1, 48)}% |`;
  });
  return ['| Document | Passage | Amount | Change |', '| --- | ---: | ---: | ---: |', ...rows].join(
    '\n',
  );
}

function codeBlock(r: Rng, k: number): string {
  const lines = Array.from(
    { length: between(r, 4, 8) },
    (_, i) =>
      `const q${k}_${i} = { amount: ${between(r, 40, 4200)}, change: ${between(r, 1, 48)} };`,
  );
  return ['```ts', ...lines, '```'].join('\n');
}
