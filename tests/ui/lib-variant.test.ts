// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { variantBase, variantFromPath } from '../../src/lib/variant';

describe('variant from the first path segment', () => {
  it.each([
    ['/pulse', 'pulse'],
    ['/pulse/auth/signin', 'pulse'],
    ['/market-intelligence/x', 'market-intelligence'],
    ['/report-agent', 'report-agent'],
    ['/supercharging-askneedl/a/b', 'supercharging-askneedl'],
    ['/landing', 'landing'],
    ['/landing?x=1', 'landing'],
    ['/', 'main'],
    ['', 'main'],
    ['/feeds/home', 'main'],
    ['/pulsex', 'main'],
    ['/feeds/pulse', 'main'],
    ['/constructor', 'main'],
    ['/toString', 'main'],
  ])('%s -> %s', (path, variant) => {
    expect(variantFromPath(path)).toBe(variant);
  });

  it('gives each variant its base path', () => {
    expect(variantBase('main')).toBe('/');
    expect(variantBase('pulse')).toBe('/pulse');
    expect(variantBase('report-agent')).toBe('/report-agent');
  });
});
