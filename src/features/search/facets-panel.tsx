import { useEffect, useId, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../../contract/constants';
import type { FacetValue, SearchParams } from '../../../contract/search';
import { formatCount } from '../../lib/format';
import { useShell } from '../../shell-context';
import { exchangeCountryOf } from './search-view';
import type { TabKey } from '../documents';

/** Facet values listed at most (the most frequent first, as the worker answers them). */
const SHOWN = 20;

type Facets = { values: FacetValue[] | null; failed: boolean };

/** The worker's stores of the user's tags and their links (worker/domains/tags.ts). */
const TAG_STORES = ['tags', 'document_tags'] as const;

/**
 * A facet's values for a search (search.tags or search.exchanges), read again when the search
 * changes, and when the worker says one of `stores` changed (the tag facet: the user's own
 * tags, given or taken here, in another tab or on another device). The search given has no
 * facet chosen, so every value stays on offer.
 */
function useFacet(
  read: (() => Promise<FacetValue[]>) | null,
  key: string,
  stores: readonly string[] = [],
): Facets {
  const { client } = useShell();
  const [facets, setFacets] = useState<Facets>({ values: null, failed: false });
  // `read` is a new closure every render; `key` names what it reads.
  const latest = useRef(read);
  latest.current = read;
  const enabled = read !== null;
  useEffect(() => {
    if (!enabled || !latest.current) return undefined;
    let alive = true;
    setFacets({ values: null, failed: false });
    let mine = 0;
    const run = () => {
      const run = ++mine;
      latest.current?.().then(
        (values) => alive && run === mine && setFacets({ values, failed: false }),
        () => alive && run === mine && setFacets({ values: [], failed: true }),
      );
    };
    run();
    const watched = new Set(stores);
    const stop = watched.size
      ? client.onEvent((event) => {
          if (event.type === 'changed' && watched.has(event.store)) run();
        })
      : () => {};
    return () => {
      alive = false;
      stop();
    };
    // `stores` is a constant per call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled, client]);
  return facets;
}

/**
 * The filters beside the results (002 §3 "facets"): tags, and on an exchange tab the companies
 * filing there. Choosing a value narrows the search to it (SearchParams.filter); choosing it
 * again lifts the narrowing.
 */
export function FacetsPanel(props: {
  params: SearchParams;
  paramsKey: string;
  tab: TabKey;
  tag: string | null;
  company: string | null;
  onTag: (tag: string | null) => void;
  onCompany: (company: string | null) => void;
}) {
  const { client } = useShell();
  const filterId = useId();
  const [typed, setTyped] = useState('');
  const [narrow, setNarrow] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setNarrow(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const country = exchangeCountryOf(props.tab);
  const tags = useFacet(
    () =>
      client.call('search.tags', {
        params: props.params,
        ...(narrow ? { filter: narrow } : {}),
      }),
    `${props.paramsKey}|${narrow}`,
    TAG_STORES,
  );
  const companies = useFacet(
    country ? () => client.call('search.exchanges', { params: props.params, country }) : null,
    `${props.paramsKey}|${country}`,
  );

  return (
    <aside className="search-facets" aria-label="Filters">
      <section aria-labelledby={`${filterId}-tags`}>
        <h2 id={`${filterId}-tags`}>Tags</h2>
        <label className="visually-hidden" htmlFor={filterId}>
          Find a tag
        </label>
        <input
          id={filterId}
          type="search"
          className="facet-filter"
          placeholder="Find a tag"
          maxLength={100}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
        />
        <FacetList
          label="Tags"
          facets={tags}
          chosen={props.tag}
          onChoose={props.onTag}
          empty="No tags"
        />
      </section>
      {country ? (
        <section aria-labelledby={`${filterId}-companies`}>
          <h2 id={`${filterId}-companies`}>Companies</h2>
          <FacetList
            label="Companies"
            facets={companies}
            chosen={props.company}
            onChoose={props.onCompany}
            empty="No companies"
          />
        </section>
      ) : null}
    </aside>
  );
}

function FacetList(props: {
  label: string;
  facets: Facets;
  chosen: string | null;
  onChoose: (value: string | null) => void;
  empty: string;
}) {
  const { values, failed } = props.facets;
  if (values === null) return <p className="muted facet-note">Loading…</p>;
  if (failed) return <p className="muted facet-note">These filters could not be loaded.</p>;
  // The chosen value stays listed even when the answer no longer holds it.
  const shown = values.slice(0, SHOWN);
  if (props.chosen !== null && !shown.some((v) => v.key === props.chosen)) {
    shown.unshift({ key: props.chosen, count: 0 });
  }
  if (shown.length === 0) return <p className="muted facet-note">{props.empty}</p>;
  return (
    <ul className="facet-values" aria-label={props.label}>
      {shown.map((value) => {
        const chosen = value.key === props.chosen;
        return (
          <li key={value.key}>
            <button
              type="button"
              className={chosen ? 'facet-value chosen' : 'facet-value'}
              aria-pressed={chosen}
              onClick={() => props.onChoose(chosen ? null : value.key)}
            >
              <span className="facet-name">{value.key}</span>
              {value.count > 0 ? (
                <span className="facet-count">{formatCount(value.count)}</span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
