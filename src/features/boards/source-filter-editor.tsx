import { useId, useState, type Dispatch } from 'react';
import type { KeywordType, SourceFilterName, SourceFilters } from '../../../contract/boards';
import { FEED_TABS, MARKETS } from '../../../contract/documents';
import type { Source } from '../../../contract/sources';
import type { DraftAction } from './draft';

/** The fields a source filter narrows by (contract SOURCE_FILTER_NAMES), as the user reads them. */
export const FILTER_FIELDS: ReadonlyArray<{ name: SourceFilterName; label: string }> = [
  { name: 'company', label: 'Company' },
  { name: 'category', label: 'Category' },
  { name: 'secondary_category', label: 'Sub-category' },
  { name: 'source', label: 'Source' },
  { name: 'market', label: 'Market' },
  { name: 'tab', label: 'Tab' },
];

const MARKET_LABELS: Record<(typeof MARKETS)[number], string> = {
  india_capital_markets: 'Indian Capital Markets',
  us_capital_markets: 'US Capital Markets',
  nz_capital_markets: 'NZ Capital Markets',
};

/** Values to offer for a field whose values are keys (source keys, markets, tabs). */
function offeredValues(name: string, sources: Source[] | null) {
  if (name === 'source') return (sources ?? []).map((s) => ({ value: s.key, label: s.label }));
  if (name === 'market') return MARKETS.map((m) => ({ value: m, label: MARKET_LABELS[m] }));
  if (name === 'tab') return FEED_TABS.map((t) => ({ value: t.key, label: t.label }));
  return [];
}

const fieldLabel = (name: string) => FILTER_FIELDS.find((f) => f.name === name)?.label ?? name;
const MODE_LABELS: Record<KeywordType, string> = { include: 'Only', exclude: 'Not' };

/** Comma-separated values, trimmed, each once. */
export const splitValues = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

/**
 * Source filters (002 §3, §4): narrow a feed to, or away from, companies, categories or
 * sources. Setting a filter in one mode takes the same name out of the other; a filter left
 * with no values is removed.
 */
export function SourceFilterEditor(props: {
  filters: SourceFilters;
  sources: Source[] | null;
  dispatch: Dispatch<DraftAction>;
}) {
  const { filters, dispatch } = props;
  const id = useId();
  const [name, setName] = useState<SourceFilterName>(FILTER_FIELDS[0].name);
  const [mode, setMode] = useState<KeywordType>('include');
  const [text, setText] = useState('');

  const offered = offeredValues(name, props.sources);
  const current = (list: 'filter' | 'exclusion_filter') =>
    filters[list].find((f) => f.name === name)?.values ?? [];
  const add = () => {
    const values = splitValues(text);
    if (!values.length) return;
    const own = current(mode === 'include' ? 'filter' : 'exclusion_filter');
    dispatch({ type: 'setFilter', name, mode, values: [...new Set([...own, ...values])] });
    setText('');
  };
  const rows = [
    ...filters.filter.map((f) => ({ ...f, mode: 'include' as const })),
    ...filters.exclusion_filter.map((f) => ({ ...f, mode: 'exclude' as const })),
  ];

  return (
    <fieldset className="builder-section">
      <legend>Filters</legend>
      {rows.length ? (
        <ul className="fb-filter-list" aria-label="Filters">
          {rows.map((f) => (
            <li key={`${f.mode}:${f.name}`} className={`fb-filter-row ${f.mode}`}>
              <span>
                <strong>
                  {MODE_LABELS[f.mode]} {fieldLabel(f.name)}:
                </strong>{' '}
                {f.values.join(', ')}
              </span>
              <button
                type="button"
                className="fb-chip-remove"
                aria-label={`Remove filter ${MODE_LABELS[f.mode]} ${fieldLabel(f.name)}`}
                onClick={() =>
                  dispatch({ type: 'setFilter', name: f.name, values: [], mode: f.mode })
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No filters.</p>
      )}
      <div className="fb-filter-add">
        <label htmlFor={`${id}-field`}>Filter by</label>
        <select
          id={`${id}-field`}
          className="fb-text-input"
          value={name}
          onChange={(event) => setName(event.target.value as SourceFilterName)}
        >
          {FILTER_FIELDS.map((f) => (
            <option key={f.name} value={f.name}>
              {f.label}
            </option>
          ))}
        </select>
        <div className="fb-segmented" role="radiogroup" aria-label="Filter mode">
          {(['include', 'exclude'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={mode === m}
              className={mode === m ? 'fb-segment selected' : 'fb-segment'}
              onClick={() => setMode(m)}
            >
              {m === 'include' ? 'Include' : 'Exclude'}
            </button>
          ))}
        </div>
        <label htmlFor={`${id}-values`} className="visually-hidden">
          Filter values
        </label>
        <input
          id={`${id}-values`}
          className="fb-text-input"
          placeholder="Values, separated by commas"
          list={offered.length ? `${id}-values-offered` : undefined}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            add();
          }}
        />
        <button
          type="button"
          className="button secondary small"
          disabled={!splitValues(text).length}
          onClick={add}
        >
          Add filter
        </button>
        <datalist id={`${id}-values-offered`}>
          {offered.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </datalist>
      </div>
    </fieldset>
  );
}
