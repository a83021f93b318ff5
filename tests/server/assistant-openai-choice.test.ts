import { describe, expect, it } from 'vitest';
import { answererFor } from '../../server/assistant/answerers';

describe('answererFor', () => {
  it('answers with the configured model, and extracts without one', () => {
    expect(answererFor({ llm: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } }).name).toBe(
      'openai',
    );
    expect(answererFor({}).name).toBe('extractive');
  });
});
