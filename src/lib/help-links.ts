/**
 * Where empty states point for help (000 §2): topic pages for websites, capital markets, the
 * browser extension, and tags and bookmarks; every other empty state to the general help page.
 * The spec names the topics, not the addresses: the pages live on the product's help site.
 */
export const HELP_TOPICS = [
  'websites',
  'capital_markets',
  'browser_extension',
  'tags_bookmarks',
] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

const TOPIC_PATHS: Record<HelpTopic, string> = {
  websites: '/websites',
  capital_markets: '/capital-markets',
  browser_extension: '/browser-extension',
  tags_bookmarks: '/tags-and-bookmarks',
};

const TOPIC_LABELS: Record<HelpTopic | 'general', string> = {
  websites: 'Learn about following websites',
  capital_markets: 'Learn about capital markets data',
  browser_extension: 'Learn about the browser extension',
  tags_bookmarks: 'Learn about tags and bookmarks',
  general: 'Visit the help centre',
};

/** The help site of a product: https://help.needl.ai for needl. */
export const helpBase = (product: string) => `https://help.${product}.ai`;

/** The help link an empty state shows: its topic page, or the general help page. */
export function helpLink(
  topic: HelpTopic | null,
  product: string,
): { href: string; label: string } {
  if (topic === null) return { href: `${helpBase(product)}/`, label: TOPIC_LABELS.general };
  return { href: `${helpBase(product)}${TOPIC_PATHS[topic]}`, label: TOPIC_LABELS[topic] };
}
