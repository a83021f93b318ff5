import type { AppDeps } from '../context';
import type { Answerer } from './answerer';
import { createExtractiveAnswerer } from './extractive';
import { createOpenAiAnswerer } from './openai';

/**
 * The answerer for this server: the configured model (LLM_BASE_URL, see config.ts) when there
 * is one, otherwise the extractive answerer, which needs no model.
 */
export function answererFor(deps: Pick<AppDeps, 'llm'>): Answerer {
  return deps.llm ? createOpenAiAnswerer(deps.llm) : createExtractiveAnswerer();
}
