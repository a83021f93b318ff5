/** How the product name reads in a title ("needl" -> "Needl"). */
const productLabel = (product: string) => product.charAt(0).toUpperCase() + product.slice(1);

/**
 * The source catalogue (000 §3), shared by server (GET /categories, source labels on cards) and
 * UI (breadcrumbs, titles): source key -> friendly title and optional group. The spec
 * names the families and the grouped regulators; the exact keys are ours, snake_case like the
 * spec's own keys (clipped_reports, nzx_filings, rss_news). Titles that carry the product name
 * are built from it, so only keys are stored here.
 */
export const SOURCE_GROUPS = {
  india_capital_markets: {
    title: 'Indian Capital Markets',
    keys: [
      'crisil',
      'bse_annual_reports',
      'bse_filings',
      'bse_presentations',
      'india_earnings_call_transcripts',
      'sebi',
      'system_driven_disclosures_sast',
    ],
  },
  us_capital_markets: {
    title: 'US Capital Markets',
    keys: ['sec', 'fasb', 'pcaob', 'fred', 'us_earnings_calls'],
  },
  // The spec lists New Zealand as a regulatory family (nz_capital_markets) without a group title.
  nz_capital_markets: { title: 'NZ Capital Markets', keys: ['nzx_filings'] },
} as const;

export type RegulatoryGroup = keyof typeof SOURCE_GROUPS;

const FIXED_TITLES: Record<string, string> = {
  // Indian Capital Markets
  crisil: 'CRISIL',
  bse_annual_reports: 'BSE Annual Reports',
  bse_filings: 'BSE Filings',
  bse_presentations: 'BSE Presentations',
  india_earnings_call_transcripts: 'India Earnings Call Transcripts',
  sebi: 'SEBI',
  system_driven_disclosures_sast: 'System Driven Disclosures (SAST)',
  // US Capital Markets
  sec: 'SEC',
  fasb: 'FASB',
  pcaob: 'PCAOB',
  fred: 'FRED',
  us_earnings_calls: 'US Earnings Calls',
  // New Zealand
  nzx_filings: 'NZX Filings',
  // messaging
  slack: 'Slack',
  whatsapp: 'WhatsApp',
  teams: 'Microsoft Teams',
  telegram: 'Telegram',
  discord: 'Discord',
  // e-mail
  gmail: 'Gmail',
  outlook: 'Outlook',
  // drives
  google_drive: 'Google Drive',
  onedrive: 'OneDrive',
  sharepoint: 'SharePoint',
  dropbox: 'Dropbox',
  box: 'Box',
  azure_storage: 'Azure Storage',
  // notes apps
  notion: 'Notion',
  evernote: 'Evernote',
  onenote: 'OneNote',
  // meetings
  zoom: 'Zoom',
  google_meet: 'Google Meet',
  // browsers
  chrome: 'Chrome',
  browser_history: 'Browser History',
  // calendars and contacts
  google_calendar: 'Google Calendar',
  outlook_calendar: 'Outlook Calendar',
  google_contacts: 'Google Contacts',
  outlook_contacts: 'Outlook Contacts',
  // podcasts
  podcasts: 'Podcasts',
  spotify_podcasts: 'Spotify Podcasts',
  apple_podcasts: 'Apple Podcasts',
  // social networks
  twitter: 'Twitter',
  linkedin: 'LinkedIn',
  reddit: 'Reddit',
  youtube: 'YouTube',
  // search engines
  google_search: 'Google Search',
  bing: 'Bing',
  // news, blogs, education
  news: 'News',
  blogs: 'Blogs',
  education: 'Education',
  // topic categories
  economics: 'Economics',
  finance: 'Finance',
  healthcare: 'Healthcare',
  law: 'Law',
  media: 'Media',
  technology: 'Technology',
  // feed home families (/feeds/home/{suffix}) and views
  home: 'My Data',
  rss_news: 'News & Blogs',
  exchanges: 'Exchanges',
  webclips: 'Web Clips',
  chats: 'Chats',
  emails: 'Emails',
  socialmedia: 'Social Media',
  drives: 'Drives',
  notes: 'Notes',
  links: 'Links',
  documents: 'Documents',
  comments: 'Comments',
  bookmarks: 'Bookmarks',
  tags: 'Tags',
  clipped_reports: 'Clipped Reports',
  shared_data: 'Group Data',
  // built-in demo content (server/catalogue/catalogue.ts): made-up companies, no network
  demo_markets_wire: 'Markets Wire',
  demo_macro_monitor: 'Macro Monitor',
  demo_tech_ledger: 'Tech Ledger',
  demo_health_review: 'Health Business Review',
  demo_policy_brief: 'Policy & Law Brief',
  demo_media_daily: 'Media & Telecom Daily',
  demo_india_filings: 'Indian Filings (demo)',
  demo_us_filings: 'US Filings (demo)',
  demo_research: 'Street Research (demo)',
  // the box and the drive keep their literal names (ARCHITECTURE "The product name")
  needlbox: 'Needlbox',
};

/** Keys whose title carries the product name. */
function productTitle(key: string, product: string): string | undefined {
  const name = productLabel(product);
  switch (key) {
    case 'needlweb':
    case `${product}_web`:
    case `${product}_universe`:
      return `${name} Web`;
    case 'needldrive':
      return `${name} Drive`;
    case `${product}_notebooks`:
      return 'Notebooks';
    default:
      return undefined;
  }
}

/** What an unknown key reads as: underscores and dots become spaces, first letter capitalised. */
export function titleFromKey(key: string): string {
  const spaced = key.replace(/[_.]/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The friendly title of a source key, e.g. "bse_filings" -> "BSE Filings". */
export function sourceTitle(key: string, product: string): string {
  return (
    productTitle(key, product) ??
    (Object.hasOwn(FIXED_TITLES, key) ? FIXED_TITLES[key] : titleFromKey(key))
  );
}

/** The regulatory family a key belongs to, or null for every other source. */
export function regulatoryGroup(key: string): RegulatoryGroup | null {
  for (const group of Object.keys(SOURCE_GROUPS) as RegulatoryGroup[]) {
    if ((SOURCE_GROUPS[group].keys as readonly string[]).includes(key)) return group;
  }
  return null;
}

/** The group title shown above a grouped source ("Indian Capital Markets"), if any. */
export function sourceGroupTitle(key: string): string | null {
  const group = regulatoryGroup(key);
  return group ? SOURCE_GROUPS[group].title : null;
}

/**
 * The key a source is filed under for search and the catalogue (000 §3): regulators map to
 * their capital-markets family, needlweb maps to `{product}_web`, every other key to itself.
 */
export function sourceFamilyKey(key: string, product: string): string {
  if (key === 'needlweb') return `${product}_web`;
  return regulatoryGroup(key) ?? key;
}
