import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchInput } from '../../src/features/search/search-input';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderInput(value = '') {
  const onSearch = vi.fn();
  const view = render(<SearchInput value={value} onSearch={onSearch} />);
  return { onSearch, box: screen.getByRole('searchbox', { name: 'Search' }), ...view };
}

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

describe('the search input (trimmed, debounced 500 ms)', () => {
  it('searches the trimmed text 500 ms after the last keystroke, not before', () => {
    const { onSearch, box } = renderInput();
    fireEvent.change(box, { target: { value: '  rates  ' } });
    advance(499);
    expect(onSearch).not.toHaveBeenCalled();
    advance(1);
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith('rates', 'typed');
  });

  it('starts the 500 ms again with every keystroke', () => {
    const { onSearch, box } = renderInput();
    fireEvent.change(box, { target: { value: 'ra' } });
    advance(400);
    fireEvent.change(box, { target: { value: 'rat' } });
    advance(400);
    fireEvent.change(box, { target: { value: 'rates' } });
    advance(499);
    expect(onSearch).not.toHaveBeenCalled();
    advance(1);
    expect(onSearch.mock.calls).toEqual([['rates', 'typed']]);
  });

  it('searches at once on Enter, and the pending keystrokes do not search again', () => {
    const { onSearch, box } = renderInput();
    fireEvent.change(box, { target: { value: ' rates ' } });
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    expect(onSearch.mock.calls).toEqual([['rates', 'submitted']]);
    advance(1000);
    expect(onSearch).toHaveBeenCalledTimes(1);
  });

  it('does not search again when only spaces changed', () => {
    const { onSearch, box } = renderInput('rates');
    fireEvent.change(box, { target: { value: 'rates ' } });
    advance(500);
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('shows the query in effect when it changes elsewhere (Back, a link)', () => {
    const onSearch = vi.fn();
    const { rerender } = render(<SearchInput value="rates" onSearch={onSearch} />);
    const box = screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement;
    expect(box.value).toBe('rates');
    rerender(<SearchInput value="bonds" onSearch={onSearch} />);
    expect(box.value).toBe('bonds');
  });
});
