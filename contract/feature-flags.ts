/**
 * Feature flag names (000 §2, §6), with the product filled in: the one list the server seeds
 * defaults from and the UI's landing rule reads. Values travel as "on"/"off" (`FeatureConfig`
 * in user.ts); a flag is on only when its value is "on".
 */

/**
 * The source families of "my data" (000 §2): one flag each, named as its /feeds/home suffix,
 * in the order the landing rule tries them. The spec names neither the families' flags nor
 * their order; ours are the suffixes, in the order the spec lists them.
 */
export const SOURCE_FAMILIES = [
  'rss_news',
  'exchanges',
  'webclips',
  'chats',
  'emails',
  'socialmedia',
  'drives',
  'notes',
] as const;
export type SourceFamily = (typeof SOURCE_FAMILIES)[number];

/** The flag that makes "my data" the landing (its first enabled family's feed). */
export const MY_DATA_FLAG = 'my_data';

/** The features the landing rule opens after my data, in the order it tries them (000 §2). */
export const LANDING_FEATURES = [
  'search',
  'bookmarks',
  'tags',
  'comments',
  'assistants',
  'report_generation',
  'report',
  'ask_full_screen',
] as const;
export type LandingFeature = (typeof LANDING_FEATURES)[number];

/** A landing feature's flag: its own name, but `{product}_report` and `ask_{product}_full_screen`. */
export const landingFlag = (feature: LandingFeature, product: string): string =>
  feature === 'report'
    ? `${product}_report`
    : feature === 'ask_full_screen'
      ? `ask_${product}_full_screen`
      : feature;

/** Flags off by default; every other known flag starts "on" (000 §6). */
export const FLAGS_OFF_BY_DEFAULT: readonly string[] = [
  'is_pricing',
  'is_pulse_whatsapp_verification_enabled',
];

/** Every flag 000 §6 names, with the product filled in, each once. */
export const knownFlags = (product: string): string[] => [
  ...new Set([
    `ask_${product}_copilot`,
    `ask_${product}_history`,
    `ask_${product}_upload`,
    `ask_${product}_dataset_selection_${product}_universe`,
    ...FLAGS_OFF_BY_DEFAULT,
    'doc_full_screen_view',
    'doc_open_in_source',
    'doc_open_in_new_tab',
    'doc_sentiment_analysis',
    'doc_table_extraction',
    'doc_summarization',
    'doc_hide_source',
    'doc_share',
    'doc_download',
    'doc_delete',
    'doc_mark_as_read',
    'notebooks',
    'webclips',
    'research',
    'my_feeds',
    MY_DATA_FLAG,
    'website_priority',
    'website_unfollow',
    'report_open_research',
    ...LANDING_FEATURES.map((feature) => landingFlag(feature, product)),
    ...SOURCE_FAMILIES,
  ]),
];

/** A flag's default value: "off" for the few 000 §6 starts off, else "on". */
export const defaultFlagValue = (name: string): 'on' | 'off' =>
  FLAGS_OFF_BY_DEFAULT.includes(name) ? 'off' : 'on';
