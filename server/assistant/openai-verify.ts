import type { AnswerQuality } from '../../contract/assistant';
import type { AnsweredSentence, RetrievedPassage } from './answerer';
import { NOT_FOUND } from './extractive';
import { supportSpans } from './overlap';
import { splitSentences } from './sentences';
import { contentWords } from './words';

/**
 * A model's finished answer checked against the passages it was given: its `[n]` markers
 * become citations, and a citation stays only when its passage supports its sentence
 * (overlap.ts). Whatever is dropped (a number out of range, a passage that does not say it) also
 * leaves the kept answer, so no marker points at a passage that does not back its sentence.
 */

/** `[3]` or `[1, 4]`, but not a markdown link's label (`[1](...)`). */
const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g;

export type VerifiedAnswer = {
  answer: string;
  sentences: AnsweredSentence[];
  quality: AnswerQuality;
};

/** A sentence as prose: markers out, markdown list, heading, quote and emphasis marks out. */
export const plainSentence = (text: string): string =>
  text
    .replace(MARKER, '')
    .replace(/^\s*(?:[-*+>]|#{1,6}|\d{1,3}[.)])\s+/, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

type Marker = { start: number; end: number; numbers: number[] };

/**
 * The answer's sentences, each with the markers that follow it: the markers are blanked out
 * before splitting (sentences.ts reads "fell.[1] Next" as one token and "[1]" after a period as
 * the start of the next sentence), then each joins the sentence before it when it sits between
 * two (a model writes "Profit rose. [1]" as often as "Profit rose [1].").
 */
function answerSentences(text: string, markers: Marker[]): Array<{ start: number; end: number }> {
  let masked = '';
  let at = 0;
  for (const m of markers) {
    masked += text.slice(at, m.start) + ' '.repeat(m.end - m.start);
    at = m.end;
  }
  const spans = splitSentences(masked + text.slice(at));
  for (const m of markers) {
    const owner = spans.findLast((s) => s.start <= m.start);
    if (owner && owner.end < m.end) owner.end = m.end;
  }
  return spans;
}

/**
 * `fits` says whether a passage may be cited for the question at all (evidence.ts passageFits:
 * another organisation's document never may); a marker of one that may not is dropped like
 * one whose passage does not support its sentence.
 */
export function verifyAnswer(
  text: string,
  passages: RetrievedPassage[],
  fits: (p: RetrievedPassage) => boolean = () => true,
): VerifiedAnswer {
  const byNumber = new Map(passages.filter(fits).map((p) => [p.n, p]));
  const markers: Marker[] = [...text.matchAll(MARKER)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    numbers: m[1].split(',').map((s) => Number(s.trim())),
  }));
  /** Per marker, the numbers it keeps. */
  const kept = new Map<Marker, number[]>();
  const sentences: AnsweredSentence[] = [];
  let claims = 0;
  let supported = 0;

  for (const span of answerSentences(text, markers)) {
    const sentence = plainSentence(text.slice(span.start, span.end));
    if (!sentence) continue;
    const cites: AnsweredSentence['cites'] = [];
    for (const marker of markers) {
      if (marker.start < span.start || marker.end > span.end) continue;
      const keep: number[] = [];
      for (const n of marker.numbers) {
        const passage = byNumber.get(n);
        const already = cites.some((c) => c.n === n);
        const spans = passage && !already ? supportSpans(sentence, passage.text) : null;
        if (spans) cites.push({ n, spans });
        if (spans || (already && !keep.includes(n))) keep.push(n);
      }
      kept.set(marker, keep);
    }
    sentences.push({ sentence, cites });
    if (contentWords(sentence).length >= 2) {
      claims++;
      if (cites.length > 0) supported++;
    }
  }

  const answer = rewriteMarkers(text, markers, kept);
  const cited = sentences.some((s) => s.cites.length > 0);
  return { answer, sentences, quality: qualityOf(answer, cited, claims, supported) };
}

/**
 * HIGH when every claim is cited; LOW when some are not, or when the model said, as asked,
 * that the passages do not answer (as the extractive answerer does); GENERATIVE when the
 * answer cites nothing at all.
 */
function qualityOf(
  answer: string,
  cited: boolean,
  claims: number,
  supported: number,
): AnswerQuality {
  if (!cited) return answer.trim().startsWith(NOT_FOUND.slice(0, -1)) ? 'LOW' : 'GENERATIVE';
  // Every claim cited: a sentence left uncited may be another organisation's figure.
  return supported < claims ? 'LOW' : 'HIGH';
}

/**
 * The answer with every marker written as `[a][b]` of the numbers it keeps; a marker keeping
 * none goes with the space before it. Markers outside any sentence (none in practice) go too.
 */
function rewriteMarkers(text: string, markers: Marker[], kept: Map<Marker, number[]>): string {
  let out = '';
  let at = 0;
  for (const marker of markers) {
    const keep = kept.get(marker) ?? [];
    let head = text.slice(at, marker.start);
    if (keep.length === 0) head = head.replace(/[ \t]+$/, '');
    out += head + keep.map((n) => `[${n}]`).join('');
    at = marker.end;
  }
  return out + text.slice(at);
}
