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
});
