import type { Variant } from '../../contract';

export type { Variant };

/** Variants with their own base path; every other path belongs to the main app (000 §1). */
const VARIANT_BY_SEGMENT: Record<string, Exclude<Variant, 'main'>> = {
  pulse: 'pulse',
  'market-intelligence': 'market-intelligence',
  'report-agent': 'report-agent',
  'supercharging-askneedl': 'supercharging-askneedl',
  landing: 'landing',
};

/** The variant from the first path segment: /pulse/... -> "pulse"; anything else -> "main". */
export function variantFromPath(pathname: string): Variant {
  const first =
    pathname
      .split(/[?#]/, 1)[0]
      .split('/')
      .find((s) => s !== '') ?? '';
  return Object.hasOwn(VARIANT_BY_SEGMENT, first) ? VARIANT_BY_SEGMENT[first] : 'main';
}

/** A variant's base path: "/pulse" for pulse, "/" for the main app. */
export function variantBase(variant: Variant): string {
  return variant === 'main' ? '/' : `/${variant}`;
}
