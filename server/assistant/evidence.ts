import type { Figure, QuestionAnalysis } from './question';
import {
  holdsFigure,
  holdsGroup,
  nameSequence,
  namesAny,
  nearFigure,
  speaksOfWhole,
  stemSequence,
  wholeGroups,
  writtenWords,
} from './sentence-holds';

/**
 * Does a sentence answer the question (issue 16)? The one rule both answerers apply, so that
 * neither offers a sentence of another organisation's document, nor one that does not state
 * what was asked:
 *
 * - about the right organisation: its document's filer is one the question names; or its
 *   document has no filer and the sentence (or the document's title) names the organisation;
 *   an organisation the index does not know is answered only from documents of no one that
 *   name it; a question naming none may be answered from any document;
 * - holding what is asked: the question's term groups (question.ts), all of them for a strong
 *   (HIGH) answer, all but one for an answer at all when there are three or more;
 * - a figure when one is asked (a number that is not only a year; a date for "when").
 */

export type Evidence = {
  /** The named organisation the sentence is about (its key), or null when none is named. */
  entity: string | null;
  /** The sentence may be offered for this question's organisations. */
  entityOk: boolean;
  /** Term groups the sentence holds. */
  held: number;
  /** It holds a figure of the kind asked (true when none is asked). */
  figure: boolean;
  /** It may answer (entity, enough of the terms, the figure). */
  eligible: boolean;
  /** It states what was asked about the named organisation: every term and the figure. */
  strong: boolean;
  /** A figure stands within three words of a word asked about ("83,700 employees"). */
  near: boolean;
  /** Per part of the question (question.ts parts), whether it states all of that part. */
  strongParts: boolean[];
  /**
   * Asked about the whole organisation ("News Corp's revenues"), it speaks of the whole
   * ("Revenues decreased $506 million"), not of a part ("Flash revenue", "revenues at the
   * Digital Real Estate Services segment"); false when the question asks of no whole.
   */
  whole: boolean;
};

/**
 * A comparison naming an organisation the index does not know beside known ones cannot be
 * answered for that one: the answer declines.
 */
const unanswerableComparison = (q: QuestionAnalysis) =>
  q.entities.length > 0 && q.unknown.length > 0;

/** Whether sentences stating a question's answer may differ in their numbers (names, kinds). */
export const answersInWords = (figure: Figure) =>
  figure === null || figure === 'name' || figure === 'kind' || figure === 'rating';

export function judgeSentence(
  q: QuestionAnalysis,
  sentence: string,
  doc: { entity: string | null; title: string },
): Evidence {
  let entity: string | null = null;
  let entityOk = true;
  if (unanswerableComparison(q)) {
    entityOk = false;
  } else if (q.entities.length > 0) {
    const own = q.entities.find((e) => e.key === doc.entity);
    if (own) {
      entity = own.key;
    } else if (doc.entity === null) {
      const named = q.entities.find(
        (e) => namesAny(sentence, e.aliases) || namesAny(doc.title, e.aliases),
      );
      entity = named?.key ?? null;
    }
    entityOk = entity !== null;
  } else if (q.unknown.length > 0) {
    entityOk =
      doc.entity === null && q.unknown.some((u) => namesAny(sentence, [nameSequence(u).join(' ')]));
  }
  const seq = stemSequence(sentence);
  const set = new Set([...seq, ...writtenWords(sentence)]);
  const held = q.groups.filter((g) => holdsGroup(seq, set, g)).length;
  // Each part of a question ("How much did sales grow, and what drove it?") is answered on its
  // own: a sentence may answer either; the first part's is what a strong answer states.
  const parts = q.parts ?? [{ groups: q.groups, figure: q.figure }];
  // A document's title sets what its sentences speak of ("RBI holds repo rate": its "the policy
  // rate unchanged" answers what the RBI decided about the repo rate): a term it holds counts,
  // though the sentence must hold one of its own.
  const titleSeq = stemSequence(doc.title);
  const titleSet = new Set([...titleSeq, ...writtenWords(doc.title)]);
  const judged = parts.map((part) => {
    const own = part.groups.map((g) => holdsGroup(seq, set, g));
    const holding = part.groups.map((g, i) => own[i] || holdsGroup(titleSeq, titleSet, g));
    const n = holding.length;
    const count = own.some(Boolean) ? holding.filter(Boolean).length : 0;
    // The part's last term is the head of what it asks ("on-time delivery RATE"): held always.
    const head = n === 0 || holding[n - 1];
    const needed = n <= 2 ? n : n <= 4 ? n - 1 : Math.ceil(n * 0.6);
    const figure = holdsFigure(sentence, { ...q, figure: part.figure }, part.groups);
    const eligible = entityOk && figure && head && count >= needed && (count > 0 || n === 0);
    return { figure, eligible, strong: eligible && n > 0 && count === n };
  });
  const figure = judged[0].figure;
  const eligible = judged.some((j) => j.eligible);
  const strong = judged[0].strong;
  const strongParts = judged.map((j) => j.strong);
  return {
    entity,
    entityOk,
    held,
    figure,
    eligible,
    strong,
    near: judged[0].eligible && nearFigure(q, seq),
    strongParts,
    whole: eligible && speaksOfWhole(wholeGroups(q), sentence),
  };
}

/**
 * Whether a passage may be cited for the question's organisations at all: its document is a
 * named organisation's, or a document of no one naming it (an unknown organisation: only the
 * latter). A question naming none: any passage.
 */
export function passageFits(
  q: QuestionAnalysis,
  p: { entity: string | null; title: string; text: string },
): boolean {
  if (q.entities.length > 0) {
    if (q.entities.some((e) => e.key === p.entity)) return true;
    return (
      p.entity === null &&
      q.entities.some((e) => namesAny(p.text, e.aliases) || namesAny(p.title, e.aliases))
    );
  }
  if (q.unknown.length > 0) {
    return (
      p.entity === null && q.unknown.some((u) => namesAny(p.text, [nameSequence(u).join(' ')]))
    );
  }
  return true;
}

/** The sentences of passages judged, for the answerers' decline and quality rules. */
export function bestEvidence(
  q: QuestionAnalysis,
  passages: ReadonlyArray<{ entity: string | null; title: string; text: string }>,
  split: (text: string) => Array<{ start: number; end: number }>,
): { eligible: boolean; strong: boolean } {
  let eligible = false;
  for (const p of passages) {
    for (const span of split(p.text)) {
      const judged = judgeSentence(q, p.text.slice(span.start, span.end), p);
      if (judged.strong) return { eligible: true, strong: true };
      if (judged.eligible) eligible = true;
    }
  }
  return { eligible, strong: false };
}
