import { createHash } from 'node:crypto';
import {
  EMPTY_DEFINITION,
  type AiPicks,
  type BoardDefinition,
  type FeedSuggestion,
} from '../../contract/boards';
import { FEED_TABS } from '../../contract/documents';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import { attributeCounts, companyCounts, keywordFor, topicCounts } from './choices';
import { compileDefinition } from './match';
import { tally } from './tally';

/**
 * Proposed feeds, drawn from what the user follows, each with the reasons and the number of
 * documents it would hold now: an AI feed from picked companies, topics and attributes
 * (POST /boards/ai_smarts), suggested feeds (GET /boards/suggestions) and refinements of one
 * feed (GET /boards/{id}/suggestions). Nothing is saved: the user reviews, then creates.
 */

/** Proposals read at most the newest this many documents (a bound on a rare, slow call). */
const PROPOSAL_SCAN = 50_000;

const idOf = (parts: unknown) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);

const keywords = (terms: string[]) => ({
  include: terms.map((t) => ({ keyword: keywordFor(t), valid: true })),
  exclude: [],
});

const listed = (items: string[]) =>
  items.length <= 2 ? items.join(' and ') : `${items.slice(0, 2).join(', ')} and more`;

/** POST /boards/ai_smarts: keywords from the picks, and the followed sources that hold matches. */
export async function aiSmarts(
  db: Db,
  userId: string,
  picks: AiPicks,
  sourceLabels: Map<string, string>,
  now: number,
): Promise<FeedSuggestion> {
  const { companies, topics, attributes } = picks;
  if (companies.length + topics.length + attributes.length === 0) {
    throw new ApiError(400, 'bad_request', 'pick at least one company, topic or attribute');
  }
  const base: BoardDefinition = {
    ...EMPTY_DEFINITION,
    keywords: keywords([...companies, ...topics]),
    filters: {
      filter: attributes.length ? [{ name: 'category', values: attributes }] : [],
      exclusion_filter: [],
    },
    ai: picks,
  };
  const parts = [...companies, ...topics].map((term) => ({
    ...EMPTY_DEFINITION,
    keywords: keywords([term]),
    filters: base.filters,
  }));
  const [whole, ...each] = await tally(
    db,
    userId,
    [base, ...parts].map((d) => compileDefinition(d, now)),
    { newest: PROPOSAL_SCAN },
  );
  const sources = [...whole.bySource]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id]) => id);
  const label = (id: string) => sourceLabels.get(id) ?? id;
  const where = (t: { bySource: Map<string, number> }) =>
    [...t.bySource]
      .sort((a, b) => b[1] - a[1] || label(a[0]).localeCompare(label(b[0])))
      .slice(0, 2)
      .map(([id, n]) => `${n} in ${label(id)}`)
      .join(', ');
  const reasons = [...companies, ...topics].map((term, i) =>
    each[i].count
      ? `${term}: ${each[i].count} documents (${where(each[i])})`
      : `${term}: no documents yet in the sources you follow`,
  );
  if (attributes.length) reasons.push(`Only documents filed as ${attributes.join(', ')}`);
  const name = listed([...companies, ...topics, ...attributes]);
  return {
    suggestion_id: idOf(['ai', picks]),
    board_name: name,
    description: `AI feed on ${name}`,
    definition: { ...base, sources },
    reasons,
    count: whole.count,
  };
}

/** GET /boards/suggestions: a feed per leading company, topic and filing category. */
export async function suggestions(db: Db, userId: string, now: number): Promise<FeedSuggestion[]> {
  const companies = await companyCounts(db, userId, 3);
  const topics = await topicCounts(
    db,
    userId,
    companies.map(([c]) => c),
    2,
  );
  const [attribute] = await attributeCounts(db, userId, 1);
  const drafts: Array<{ kind: string; term: string; definition: BoardDefinition; why: string }> = [
    ...companies.map(([c, n]) => ({
      kind: 'company',
      term: c,
      definition: { ...EMPTY_DEFINITION, keywords: keywords([c]) },
      why: `${c} is named in ${n} of your documents`,
    })),
    ...topics.map(([t, n]) => ({
      kind: 'topic',
      term: t,
      definition: { ...EMPTY_DEFINITION, keywords: keywords([t]) },
      why: `${t} comes up in ${n} recent documents`,
    })),
    ...(attribute
      ? [
          {
            kind: 'attribute',
            term: attribute[0],
            definition: {
              ...EMPTY_DEFINITION,
              filters: {
                filter: [{ name: 'category', values: [attribute[0]] }],
                exclusion_filter: [],
              },
            },
            why: `${attribute[1]} of your documents are filed as ${attribute[0]}`,
          },
        ]
      : []),
  ];
  const counts = await tally(
    db,
    userId,
    drafts.map((d) => compileDefinition(d.definition, now)),
    { newest: PROPOSAL_SCAN },
  );
  return drafts.map((d, i) => ({
    suggestion_id: idOf([d.kind, d.term]),
    board_name: d.term,
    description: `Everything on ${d.term} from the sources you follow`,
    definition: d.definition,
    reasons: [d.why],
    count: counts[i].count,
  }));
}

/**
 * GET /boards/{id}/suggestions: narrower versions of a feed, by its leading companies and, when
 * it spans several tabs, by its largest tab. Counts come from the feed's own entries.
 */
export async function refinements(
  db: Db,
  feedId: string,
  definition: BoardDefinition,
): Promise<FeedSuggestion[]> {
  const rows = await db
    .selectFrom('feed_entries')
    .select(['company', 'tab', (eb) => eb.fn.countAll().as('n')])
    .where('feed_id', '=', feedId)
    .where('removed', '=', 0)
    .groupBy(['company', 'tab'])
    .execute();
  const byCompany = new Map<string, number>();
  const byTab = new Map<string, number>();
  for (const r of rows) {
    if (r.company) byCompany.set(r.company, (byCompany.get(r.company) ?? 0) + Number(r.n));
    byTab.set(r.tab, (byTab.get(r.tab) ?? 0) + Number(r.n));
  }
  const narrowed = (name: 'company' | 'tab', value: string): BoardDefinition => ({
    ...definition,
    filters: {
      filter: [
        ...definition.filters.filter.filter((f) => f.name !== name),
        { name, values: [value] },
      ],
      exclusion_filter: definition.filters.exclusion_filter.filter((f) => f.name !== name),
    },
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n);
  const out: FeedSuggestion[] = top(byCompany, 3).map(([company, n]) => ({
    suggestion_id: idOf([feedId, 'company', company]),
    board_name: company,
    description: `Only documents about ${company}`,
    definition: narrowed('company', company),
    reasons: [`${n} documents of this feed are about ${company}`],
    count: n,
  }));
  if (byTab.size > 1) {
    const [[tab, n]] = top(byTab, 1);
    const label = FEED_TABS.find((t) => t.key === tab)?.label ?? tab;
    out.push({
      suggestion_id: idOf([feedId, 'tab', tab]),
      board_name: label,
      description: `Only the ${label} documents of this feed`,
      definition: narrowed('tab', tab),
      reasons: [`${n} documents of this feed are in ${label}`],
      count: n,
    });
  }
  return out;
}
