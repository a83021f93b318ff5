/**
 * Small line icons drawn as SVG: text glyphs and emoji depend on the fonts a machine has (a
 * thumbs-up is a blank box without an emoji font), a path does not. Decorative: the button
 * around one carries the label.
 */
const PATHS = {
  copy: 'M9 9h10v12H9z M5 15H4V3h12v1',
  'thumbs-up':
    'M7 10v11H3V10z M7 10l4-8c1.7 0 3 1.3 3 3v4h5.5c1.2 0 2.1 1.1 1.9 2.3l-1.4 8A2 2 0 0 1 18 21H7',
  'thumbs-down':
    'M17 14V3h4v11z M17 14l-4 8c-1.7 0-3-1.3-3-3v-4H4.5c-1.2 0-2.1-1.1-1.9-2.3l1.4-8A2 2 0 0 1 6 3h11',
  trash: 'M4 6h16 M9 6V4h6v2 M6 6l1 15h10l1-15 M10 10v7 M14 10v7',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon(props: { name: IconName; size?: number }) {
  const size = props.size ?? 16;
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[props.name]} />
    </svg>
  );
}
