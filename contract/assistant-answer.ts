import { z } from 'zod';
import { id } from './define';
import { TextSpan, TimeZone } from './search';

export { TextSpan };

export const ASK_PATH = '/ml/ask-{product}';
/** `{product}_universe`: the web (the public corpus) as a scope and a session group (001 §9). */
export const universeId = (product: string) => `${product}_universe`;
export const HOME_ID = 'home';

export const MAX_PROMPT_CHARS = 4_000;
export const MAX_ASK_DOCUMENTS = 50;
/**
 * Passages the answerers read for a question; a comparison or a question of two parts reads up
 * to twice as many (server/assistant/retrieve.ts).
 */
export const ASK_PASSAGES = 12;

// ---------------------------------------------------------------------------------------------
// The question (001 §7 "GET assistant streaming endpoint")

const flag = (field: string) =>
  z
    .enum(['true', 'false'], { message: `${field} must be true or false` })
    .transform((v) => v === 'true');

export const AskMode = z.enum(['answer', 'search'], { message: 'mode must be answer or search' });
export type AskMode = z.infer<typeof AskMode>;

/**
 * The query of GET /ml/ask-{product}. Scope, the most specific first: document_id (one or more
 * documents), source, channel_id, board_id (a feed, `home`, or `{product}_universe` for the web);
 * none: all the user's data. `session_id` continues a session, or names a new one (a client
 * may choose the id of a session it starts: the server creates it under that id).
 */
export const AskQuery = z.object({
  prompt: z
    .string({ message: 'prompt must be text' })
    .trim()
    .min(1, { message: 'Question must be non-empty' })
    .max(MAX_PROMPT_CHARS, { message: `prompt must be at most ${MAX_PROMPT_CHARS} characters` }),
  stream: z.literal('true', { message: 'stream must be true' }).default('true'),
  timezone: TimeZone.default('UTC'),
  pro: flag('pro').default(false),
  source: id('source').optional(),
  session_id: id('session_id')
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'session_id must be letters, digits, - and _' })
    .optional(),
  /** Repeated in the query string (`document_id=a&document_id=b`). */
  document_id: z
    .union([id('document_id'), z.array(id('document_id'))])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(
      z.array(z.string()).max(MAX_ASK_DOCUMENTS, {
        message: `document_id may be repeated at most ${MAX_ASK_DOCUMENTS} times`,
      }),
    )
    .optional(),
  board_id: id('board_id').optional(),
  channel_id: id('channel_id').optional(),
  /** One of the user's notebooks: the answer comes from its notes alone (a document scope). */
  notebook_id: id('notebook_id').optional(),
  /**
   * The chat's attachments (contract/assistant-attachments.ts): answered over this uploads
   * feed's processed documents only; every other scope part is then ignored.
   */
  attachments_feed_id: id('attachments_feed_id').optional(),
  /** `search`: answer_type SEARCH, matching results with highlights instead of an answer. */
  mode: AskMode.default('answer'),
});
export type AskQueryInput = z.input<typeof AskQuery>;
export type AskQuery = z.infer<typeof AskQuery>;

// ---------------------------------------------------------------------------------------------
// What an answer carries (001 §3)

export const Point = z.object({ x: z.number(), y: z.number() });
/** Where a passage sits on a page of a document with positions (a PDF): 4 corners. */
export const DocumentHighlight = z.object({
  coordinates: z.array(Point).length(4),
  width: z.number(),
  height: z.number(),
  page_number: z.number().int().min(1),
});
export type DocumentHighlight = z.infer<typeof DocumentHighlight>;

/**
 * One cited passage (001 §3 "Citation"). `id` is its number in the answer: `[n]` in the answer
 * text refers to the citation whose id is "n". `context` is the passage's text and
 * `highlight_indexes` the spans of it that support the sentence; `passage` is the passage's
 * span in the document's plain text (preview links mark it). `{product}_document_link` (the
 * in-app preview path) is carried under that product-named key (documentLinkKey).
 */
export const Citation = z.looseObject({
  id: z.string(),
  document_id: z.string(),
  public_access_key: z.string().nullable(),
  access_key: z.string().nullable(),
  source: z.string(),
  category_tab: z.string().nullable(),
  channel_id: z.string().nullable(),
  mime_type: z.string(),
  document_highlight: DocumentHighlight.nullable(),
  /** The original address (http or https), or null. */
  url: z.string().nullable(),
  title_label: z.string(),
  source_label: z.string(),
  /** Published time, unix seconds. */
  unix: z.number().int(),
  /** true when the document is text only (no original to open). */
  content_only: z.boolean(),
  highlight_indexes: z.array(TextSpan),
  context: z.string(),
  passage: TextSpan,
});
export type Citation = z.infer<typeof Citation>;
export const documentLinkKey = (product: string) => `${product}_document_link`;

/** A search-mode result (001 §3 "Search result"): highlights are HTML with only <em> marks. */
export const AskSearchResult = z.object({
  document_id: z.string(),
  mime_type: z.string(),
  title_label: z.string(),
  source_label: z.string(),
  source: z.string(),
  category_tab: z.string().nullable(),
  access_key: z.string().nullable(),
  unix: z.number().int(),
  url: z.string().nullable(),
  highlights: z.array(z.string()),
  /** Spans of the highlights in the document's plain text. */
  highlight_indexes: z.array(TextSpan),
  /** Page boxes of the highlights, for documents with positions (empty otherwise). */
  highlighted_coordinates: z.array(DocumentHighlight),
});
export type AskSearchResult = z.infer<typeof AskSearchResult>;

export const AnswerSentence = z.object({ sentence: z.string(), citations: z.array(Citation) });
export type AnswerSentence = z.infer<typeof AnswerSentence>;

export const ANSWER_TYPES = ['ANSWER', 'SEARCH'] as const;
export const AnswerType = z.enum(ANSWER_TYPES);
/** LOW: weak evidence; GENERATIVE: the answer cites nothing; HIGH: every claim cited. */
export const AnswerQuality = z.enum(['HIGH', 'LOW', 'GENERATIVE']);
export type AnswerQuality = z.infer<typeof AnswerQuality>;

/** DONE's data (001 §3 "Answer data"). */
export const AskAnswer = z.object({
  answer_type: AnswerType,
  /** SEARCH: the matching results; ANSWER: the documents the passages were read from. */
  retrieved_results: z.array(AskSearchResult),
  generated_answer: z.object({ answer: z.string(), sentences: z.array(AnswerSentence) }),
  followup_questions: z.array(z.string()),
  message_id: z.string(),
  answer_quality: AnswerQuality,
  session_id: z.string(),
});
export type AskAnswer = z.infer<typeof AskAnswer>;

/** One step the server took (INTERMEDIATE_STEP): loading until it finished. */
export const AskStep = z.object({ id: z.string(), text: z.string(), loading: z.boolean() });
export type AskStep = z.infer<typeof AskStep>;

/** One server-sent event (001 §3 "Stream event"). Each INTERMEDIATE_STEP carries every step. */
export const AskEvent = z.discriminatedUnion('status', [
  z.object({ status: z.literal('INTERMEDIATE_STEP'), data: z.object({ steps: z.array(AskStep) }) }),
  z.object({ status: z.literal('GENERATED_ANSWER'), data: z.object({ answer_chunk: z.string() }) }),
  /**
   * What the answer draws on, once retrieval is done and before its first chunk: the passages
   * (as citations, by the number `[n]` cites) and their documents. An answer stopped before
   * DONE keeps them as its sources (stoppedAnswer).
   */
  z.object({
    status: z.literal('SOURCES'),
    data: z.object({ citations: z.array(Citation), retrieved_results: z.array(AskSearchResult) }),
  }),
  z.object({ status: z.literal('GENERATING_CITATIONS'), data: z.object({}) }),
  z.object({ status: z.literal('DONE'), data: AskAnswer }),
]);
export type AskEvent = z.infer<typeof AskEvent>;
/** A data line starting with this is a failure; the rest of the line says what failed. */
export const ASK_ERROR_PREFIX = '[ERROR]';

// ---------------------------------------------------------------------------------------------
// Citation links (001 §2 "Citation links and preview")

/**
 * /preview/{source}/{document_id}?category_tab&channel_id&access_key&public_access_key&highlight,
 * built only when source, document id, one of the keys and category_tab all exist.
 * `highlight` is `start-end` in the document's plain text (the cited passage).
 */
export function citationPreviewHref(c: {
  source?: string | null;
  document_id?: string | null;
  access_key?: string | null;
  public_access_key?: string | null;
  category_tab?: string | null;
  channel_id?: string | null;
  passage?: { start: number; end: number } | null;
}): string | null {
  if (!c.source || !c.document_id || !c.category_tab) return null;
  if (!c.access_key && !c.public_access_key) return null;
  const q = new URLSearchParams({ category_tab: c.category_tab });
  if (c.channel_id) q.set('channel_id', c.channel_id);
  if (c.access_key) q.set('access_key', c.access_key);
  if (c.public_access_key) q.set('public_access_key', c.public_access_key);
  if (c.passage) q.set('highlight', `${c.passage.start}-${c.passage.end}`);
  return `/preview/${encodeURIComponent(c.source)}/${encodeURIComponent(c.document_id)}?${q}`;
}

/** Citations travel as `label:: url` strings (001 §2). */
export const citationLink = (label: string, url: string) => `${label}:: ${url}`;
export function parseCitationLink(value: string): { label: string; url: string | null } {
  const at = value.indexOf(':: ');
  if (at < 0) return { label: value, url: null };
  return { label: value.slice(0, at), url: value.slice(at + 3).trim() };
}
/** A citation link is clickable only when it parses as an http or https URL (001 §2). */
export function clickableUrl(url: string | null, base = 'https://app.invalid'): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export type AskSources = Extract<AskEvent, { status: 'SOURCES' }>['data'];

/**
 * The data a stopped answer keeps (server and worker alike): the text written so far as one
 * sentence holding every source the answer had (SOURCES), so its Sources list and `[n]` markers
 * still open what it was reading. No follow-ups; LOW quality (the answer is incomplete).
 */
export function stoppedAnswer(
  answer: string,
  sources: AskSources,
  ids: { message_id: string; session_id: string },
): AskAnswer {
  return {
    answer_type: 'ANSWER',
    retrieved_results: sources.retrieved_results,
    generated_answer: {
      answer,
      sentences: sources.citations.length
        ? [{ sentence: answer, citations: sources.citations }]
        : [],
    },
    followup_questions: [],
    message_id: ids.message_id,
    answer_quality: 'LOW',
    session_id: ids.session_id,
  };
}
