// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { assistantLabel, productLabel } from '../../src/lib/product';

describe('product name in text', () => {
  it('capitalises the product for titles', () => {
    expect(productLabel('needl')).toBe('Needl');
    expect(productLabel('acme')).toBe('Acme');
  });

  it('names the assistant Ask{product}', () => {
    expect(assistantLabel('needl')).toBe('AskNeedl');
    expect(assistantLabel('acme')).toBe('AskAcme');
  });
});
