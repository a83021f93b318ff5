import { useEffect, useId, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../../contract/constants';
import { MAX_QUERY_CHARS } from '../../../contract/search';

/**
 * The search box (002 §5 "Search input: trimmed; debounced 500 ms"): what is typed is searched
 * 500 ms after the last keystroke, trimmed; Enter searches at once. `value` is the query in
 * effect (the address's); when it changes elsewhere (Back, a link) the box shows it.
 * `how` says whether the query came from typing (the page replaces its history entry) or from
 * Enter (a new entry).
 */
export function SearchInput(props: {
  value: string;
  onSearch: (query: string, how: 'typed' | 'submitted') => void;
  placeholder?: string;
}) {
  const inputId = useId();
  const [text, setText] = useState(props.value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The latest value and callback, for a timer set by an earlier render.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    setText((was) => (was.trim() === props.value ? was : props.value));
  }, [props.value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const query = next.trim();
      if (query !== latest.current.value) latest.current.onSearch(query, 'typed');
    }, SEARCH_DEBOUNCE_MS);
  };

  return (
    <form
      className="search-input"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        clearTimeout(timer.current);
        props.onSearch(text.trim(), 'submitted');
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        Search
      </label>
      <input
        id={inputId}
        type="search"
        value={text}
        maxLength={MAX_QUERY_CHARS}
        placeholder={props.placeholder ?? 'Search your workspace'}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => change(event.currentTarget.value)}
      />
      <button type="submit" className="button primary small">
        Search
      </button>
    </form>
  );
}
