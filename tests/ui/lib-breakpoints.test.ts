// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { BREAKPOINTS, isLaptopOrSmaller, isMobile, isTablet } from '../../src/lib/breakpoints';

describe('screen-size classes', () => {
  it('puts the limits at 767, 1024 and 1440 px, inclusive', () => {
    expect(BREAKPOINTS).toEqual({ mobile: 767, tablet: 1024, laptop: 1440 });
    expect([isMobile(767), isMobile(768)]).toEqual([true, false]);
    expect([isTablet(1024), isTablet(1025)]).toEqual([true, false]);
    expect([isLaptopOrSmaller(1440), isLaptopOrSmaller(1441)]).toEqual([true, false]);
  });

  it('counts a phone as tablet-and-smaller and laptop-and-smaller', () => {
    expect(isTablet(375)).toBe(true);
    expect(isLaptopOrSmaller(375)).toBe(true);
    expect(isMobile(1920)).toBe(false);
  });
});
