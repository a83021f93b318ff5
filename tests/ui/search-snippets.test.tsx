import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { joinSnippets } from '../../src/features/search/join-snippets';
import { Highlights } from '../../src/features/search/search-results';

afterEach(cleanup);

describe('search snippets joined into one line', () => {
  it('leaves out fragments that hold only a currency sign, punctuation or an ellipsis', () => {
    expect(joinSnippets(['$…', '…', '… — …', '…the <em>rate</em> held…'])).toBe(
      '…the <em>rate</em> held…',
    );
    expect(joinSnippets(['$…', '… …', '...'])).toBe('');
    expect(joinSnippets(['…<em>$</em>…'])).toBe('');
  });

  it('puts one ellipsis between fragments, never a run of them', () => {
    expect(joinSnippets(['The <em>rate</em> held…', '…banks <em>rate</em> cuts…'])).toBe(
      'The <em>rate</em> held … banks <em>rate</em> cuts…',
    );
    expect(joinSnippets(['…profit rose… ', ' …$4.2 bn in <em>Q3</em>'])).toBe(
      '…profit rose … $4.2 bn in <em>Q3</em>',
    );
  });

  it('keeps a fragment whose only word is a figure', () => {
    expect(joinSnippets(['…$5…', '…net <em>income</em>'])).toBe('…$5 … net <em>income</em>');
  });

  it('shows the joined line on a result (the search page)', () => {
    const { container } = render(
      <Highlights snippets={['$…', '…the <em>rate</em> held…', '…', '…cut by <em>rate</em>…']} />,
    );
    expect(container.textContent).toBe('…the rate held … cut by rate…');
    expect(container.querySelectorAll('em')).toHaveLength(2);
  });

  it('shows nothing when no fragment holds a word', () => {
    const { container } = render(<Highlights snippets={['$…', '…']} />);
    expect(container.textContent).toBe('');
  });
});
