/**
 * Sentences of real text (10-K filings, news) as [start, end) spans, for the extractive answer,
 * the citation check and matching history searches: search/sentences.ts, the one splitter that
 * passages are cut with too, so a quoted sentence never straddles two passages.
 */

export { splitSentences, type SentenceSpan } from '../search/sentences';
