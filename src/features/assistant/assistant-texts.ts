import { TOAST_TEXT } from '../../../contract/constants';
import { assistantLabel } from '../../lib/product';

/** The assistant's words as 001 writes them (sections 2, 4, 8 and 9). */

export const WAITING_PHRASES = ['Thinking', 'Exploring insights', 'Finalizing answer'] as const;
/** Waiting text: a new dot every 500 ms (1 to 3), a new phrase every 12 000 ms (001 §9). */
export const WAITING_STEP_MS = 500;
export const WAITING_PHRASE_MS = 12_000;

export const PLACEHOLDER_EMPTY = 'Ask me anything...';
export const PLACEHOLDER_FOLLOW_UP = 'Ask follow up...';
export const PLACEHOLDER_HELP = 'Add @help to your question if you need help.';
/** The input's typewriter placeholder (001 §9). */
export const TYPEWRITER = { typeMs: 25, deleteMs: 20, holdMs: 2000 } as const;
/** Chat titles are typed at 15 ms per character (001 §2, §9). */
export const TITLE_TYPE_MS = 15;

export const NO_SOURCE_HINT = 'Select a source first.';
/** Placeholder cards while suggestions load (001 §2): all, feed, document. */
export const SUGGESTION_SKELETONS = { all: 4, feed: 2, document: 0 } as const;

export const NOTICE_LOW =
  'We found that the answer may not be satisfactory. Please verify the information or rephrase your question.';
export const NOTICE_GENERATIVE =
  'This seems to be a generative response. If you were expecting facts, please rephrase or clarify in a follow-up.';
/**
 * 001's "web search" asks the public corpus (`{product}_universe`: documents anyone can read),
 * not the live web: the switch says so (issue 18).
 */
export const PUBLIC_CORPUS_LABEL = 'Public corpus';
export const PUBLIC_CORPUS_HINT =
  'Ask the public corpus (news and filings anyone can read) instead of your own data';
export const WEB_SEARCH_LOCKED =
  'Search status can only be changed in a new session. Please create a new session to enable or disable Search.';

export const ERROR_BUBBLE = TOAST_TEXT.assistantError;
export const FEEDBACK_THANKS = 'Thanks for your feedback!';
export const NO_SEARCH_RESULTS = 'No search results found.';

export const disclaimer = (product: string) =>
  `${assistantLabel(product)} can make mistakes. Double-check important info.`;

/** "1 instance found", "12 instances found". */
export const instancesText = (count: number) =>
  `${count} ${count === 1 ? 'instance' : 'instances'} found`;
