import type { CategoryTab, Market } from '../../contract/documents';
import { sourceGroupTitle, sourceTitle } from '../../contract/source-catalogue';
import type { Database, Db } from '../db/schema';
import { FILINGS_PRESETS } from '../ingest';
import { iso } from '../time';

/**
 * The catalogue as rows of `sources` (000 §3): the filings presets of server/ingest/presets.ts
 * (real public feeds of exchanges and regulators, read by the ingestion runner) and the built-in
 * demo sources, whose documents the corpus generator writes (no network). Written on every
 * start (`prepare`), so a preset's address change reaches existing databases.
 */

/** The topic categories of the catalogue (000 §3), for /connect/rssTopics. */
export const TOPICS = ['economics', 'finance', 'healthcare', 'law', 'media', 'technology'] as const;
export type Topic = (typeof TOPICS)[number];

export type BuiltinSource = {
  key: string;
  category_tab: CategoryTab;
  market: Market | null;
  topic: Topic | null;
};

/** Built-in sources are grouped under this title, so nobody takes them for a publisher. */
export const BUILTIN_GROUP = 'Demo Content';

/**
 * Built-in demo content: news desks by topic, filings of Indian and US listed companies, and
 * research notes, all about made-up companies (demo/corpus.ts). Titles in
 * contract/source-catalogue.ts.
 */
export const BUILTIN_SOURCES: readonly BuiltinSource[] = [
  { key: 'demo_markets_wire', category_tab: 'rss_news', market: null, topic: 'finance' },
  { key: 'demo_macro_monitor', category_tab: 'rss_news', market: null, topic: 'economics' },
  { key: 'demo_tech_ledger', category_tab: 'rss_news', market: null, topic: 'technology' },
  { key: 'demo_health_review', category_tab: 'rss_news', market: null, topic: 'healthcare' },
  { key: 'demo_policy_brief', category_tab: 'rss_news', market: null, topic: 'law' },
  { key: 'demo_media_daily', category_tab: 'rss_news', market: null, topic: 'media' },
  {
    key: 'demo_india_filings',
    category_tab: 'exchanges',
    market: 'india_capital_markets',
    topic: null,
  },
  { key: 'demo_us_filings', category_tab: 'exchanges', market: 'us_capital_markets', topic: null },
  { key: 'demo_research', category_tab: 'research', market: null, topic: 'finance' },
];

/** Presets whose news fits a topic, beside the built-in desks. */
const PRESET_TOPICS: Record<string, Topic> = {
  fred: 'economics',
  fasb: 'finance',
  pcaob: 'finance',
  sebi: 'law',
};

export const topicOfKey = (key: string): Topic | null =>
  BUILTIN_SOURCES.find((b) => b.key === key)?.topic ?? PRESET_TOPICS[key] ?? null;

type SourceRow = Database['sources'];

/** Every catalogue row, as written. */
export function catalogueRows(product: string, now: number): SourceRow[] {
  const createdAt = iso(now);
  const presets: SourceRow[] = FILINGS_PRESETS.map((p) => ({
    id: p.key,
    key: p.key,
    // Even a preset read as a web page is 'filings': the runner takes its parser from the preset.
    kind: 'filings',
    label: sourceTitle(p.key, product),
    url: p.url,
    site_url: p.siteUrl,
    category: 'exchanges_groups',
    category_tab: 'exchanges',
    market: p.market,
    grp: sourceGroupTitle(p.key),
    thumbnail: null,
    flag: 'exchanges',
    public: 1,
    owner_user_id: null,
    created_at: createdAt,
  }));
  const builtins: SourceRow[] = BUILTIN_SOURCES.map((b) => ({
    id: b.key,
    key: b.key,
    kind: 'builtin',
    label: sourceTitle(b.key, product),
    url: null,
    site_url: null,
    category: b.category_tab === 'exchanges' ? 'exchanges_groups' : 'rss_news',
    category_tab: b.category_tab,
    market: b.market,
    grp: BUILTIN_GROUP,
    thumbnail: null,
    flag: b.category_tab === 'exchanges' ? 'exchanges' : 'rss_news',
    public: 1,
    owner_user_id: null,
    created_at: createdAt,
  }));
  return [...presets, ...builtins];
}

/** Writes the catalogue (insert, or update what a preset says now). Idempotent. */
export async function ensureCatalogue(db: Db, product: string, now = Date.now()): Promise<void> {
  for (const row of catalogueRows(product, now)) {
    await db
      .insertInto('sources')
      .values(row)
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          kind: row.kind,
          label: row.label,
          url: row.url,
          site_url: row.site_url,
          category: row.category,
          category_tab: row.category_tab,
          market: row.market,
          grp: row.grp,
          flag: row.flag,
          public: 1,
        }),
      )
      .execute();
  }
}
