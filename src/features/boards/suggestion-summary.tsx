import type { BoardDefinition, FeedSuggestion } from '../../../contract/boards';
import type { Source } from '../../../contract/sources';
import { formatCount } from '../../lib/format';
import { describeRange } from './date-range';
import { FILTER_FIELDS } from './source-filter-editor';

const filterLabel = (name: string) => FILTER_FIELDS.find((f) => f.name === name)?.label ?? name;

/** What a definition reads, in words: keywords, sources, filters, dates. */
export function DefinitionSummary(props: {
  definition: BoardDefinition;
  sources: Source[] | null;
}) {
  const { definition: d } = props;
  const labels = new Map((props.sources ?? []).map((s) => [s.source_id, s.label]));
  const filters = [
    ...d.filters.filter.map((f) => `Only ${filterLabel(f.name)}: ${f.values.join(', ')}`),
    ...d.filters.exclusion_filter.map((f) => `Not ${filterLabel(f.name)}: ${f.values.join(', ')}`),
  ];
  return (
    <dl className="fb-definition-summary">
      <dt>Include</dt>
      <dd>
        {d.keywords.include.length ? (
          <ul className="fb-chip-list" aria-label="Keywords to include">
            {d.keywords.include.map((k) => (
              <li key={k.keyword} className="fb-chip include">
                <span className="fb-chip-text">{k.keyword}</span>
              </li>
            ))}
          </ul>
        ) : (
          'Any keyword'
        )}
      </dd>
      {d.keywords.exclude.length ? (
        <>
          <dt>Exclude</dt>
          <dd>
            <ul className="fb-chip-list" aria-label="Keywords to exclude">
              {d.keywords.exclude.map((k) => (
                <li key={k.keyword} className="fb-chip exclude">
                  <span className="fb-chip-text">{k.keyword}</span>
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
      <dt>Sources</dt>
      <dd>
        {d.sources.length
          ? d.sources.map((id) => labels.get(id) ?? id).join(', ')
          : 'Every source you follow'}
      </dd>
      {filters.length ? (
        <>
          <dt>Filters</dt>
          <dd>{filters.join('; ')}</dd>
        </>
      ) : null}
      <dt>Date range</dt>
      <dd>{describeRange(d.date_range)}</dd>
    </dl>
  );
}

/** A suggestion's reasons and how many documents it holds now. */
export function SuggestionReasons(props: { suggestions: readonly FeedSuggestion[] }) {
  const reasons = props.suggestions.flatMap((s) => s.reasons);
  const count = props.suggestions.reduce((n, s) => n + s.count, 0);
  return (
    <section className="fb-suggestion-reasons" aria-label="Why this feed">
      <p>
        <strong>
          {count === 1 ? '1 document' : `${formatCount(count)} documents`} match
          {count === 1 ? 'es' : ''} now
        </strong>
      </p>
      {reasons.length ? (
        <ul>
          {reasons.map((reason, i) => (
            <li key={i}>{reason}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
