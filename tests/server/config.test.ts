import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';

describe('readConfig', () => {
  it('trusts x-forwarded-for only with TRUST_PROXY=1', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(() => readConfig({ TRUST_PROXY: 'yes' })).toThrow(
      'TRUST_PROXY must be 1 (or true) or 0 (or false), got "yes"',
    );
  });

  it('sends mail as no-reply@<product>.ai unless MAIL_FROM says otherwise', () => {
    expect(readConfig({}).mailFrom).toBe('needl <no-reply@needl.ai>');
    expect(readConfig({ PRODUCT: 'acme' }).mailFrom).toBe('acme <no-reply@acme.ai>');
    expect(readConfig({ MAIL_FROM: 'Ops <ops@example.com>' }).mailFrom).toBe(
      'Ops <ops@example.com>',
    );
  });

  it('answers with a model only when LLM_BASE_URL and LLM_MODEL are both set', () => {
    expect(readConfig({}).llm).toBeUndefined();
    expect(
      readConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_MODEL: 'llama3.1' }).llm,
    ).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
    expect(
      readConfig({
        LLM_BASE_URL: 'https://api.openai.com/v1',
        LLM_MODEL: 'gpt-4o-mini',
        LLM_API_KEY: 'sk-test',
      }).llm,
    ).toEqual({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-test' });
  });

  it('refuses an LLM configuration that cannot work, naming the variable', () => {
    expect(() => readConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
      'LLM_MODEL must name the model to use at LLM_BASE_URL (e.g. gpt-4o-mini)',
    );
    expect(() => readConfig({ LLM_MODEL: 'gpt-4o-mini' })).toThrow(
      'LLM_MODEL is set but LLM_BASE_URL is not',
    );
    expect(() => readConfig({ LLM_API_KEY: 'sk-test' })).toThrow(
      'LLM_API_KEY is set but LLM_BASE_URL is not',
    );
    expect(() => readConfig({ LLM_BASE_URL: 'localhost:11434', LLM_MODEL: 'm' })).toThrow(
      'LLM_BASE_URL must be an http:// or https:// URL without a query, got "localhost:11434"',
    );
  });
});
