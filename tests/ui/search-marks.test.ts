import { afterEach, describe, expect, it } from 'vitest';
import { clearMarks, markMatches, plainTextHtml } from '../../src/features/search/mark-text';

afterEach(() => {
  document.body.innerHTML = '';
});

function rendered(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

const marked = (root: HTMLElement) =>
  [...root.querySelectorAll('mark.search-mark')].map((m) => m.textContent);

const PLAIN = 'Central banks held rates.\n\nRates may fall; rate cuts follow.';
const HTML = '<p>Central banks held <b>rates</b>.</p><p>Rates may fall; rate cuts follow.</p>';

describe('marking search matches in a previewed document', () => {
  it("marks exactly the result's spans of the plain text in the HTML", () => {
    const root = rendered(HTML);
    // "rates" at 19-24 and "Rates" at 27-32 of the plain text; not "rate" at 43.
    const marks = markMatches(root, PLAIN, {
      spans: [
        { start: 19, end: 24 },
        { start: 27, end: 32 },
      ],
      term: 'rates',
    });
    expect(marks.map((m) => m.textContent)).toEqual(['rates', 'Rates']);
    expect(root.querySelector('b')?.innerHTML).toBe('<mark class="search-mark">rates</mark>');
    expect(root.textContent).toBe('Central banks held rates.Rates may fall; rate cuts follow.');
  });

  it('marks a span that crosses elements, one mark per piece', () => {
    const root = rendered('<p>held <i>inter</i>est rates</p>');
    const marks = markMatches(root, 'held interest rates', {
      spans: [{ start: 5, end: 13 }],
      term: null,
    });
    expect(marks.map((m) => m.textContent)).toEqual(['inter', 'est']);
  });

  it("marks the spans' words wherever they occur when the texts differ", () => {
    const root = rendered('<h2>RATES</h2><p>Central banks held rates.</p>');
    markMatches(root, 'Central banks held rates.', {
      spans: [{ start: 19, end: 24 }],
      term: null,
    });
    expect(marked(root)).toEqual(['RATES', 'rates']);
  });

  it("marks the search term's words by stem, not operators or exclusions", () => {
    const root = rendered(HTML);
    markMatches(root, PLAIN, { spans: null, term: '"interest rate" AND NOT cuts' });
    expect(marked(root)).toEqual(['rates', 'Rates', 'rate']);
    const excluded = rendered(HTML);
    markMatches(excluded, PLAIN, { spans: null, term: 'banks -(rates OR fall) | follow' });
    expect(marked(excluded)).toEqual(['banks', 'follow']);
    const companies = rendered('<p>The company and other companies.</p>');
    markMatches(companies, '', { spans: null, term: 'companies' });
    expect(marked(companies)).toEqual(['company', 'companies']);
    // As the server matches (contract/words.ts): "employ" is "employed" and "employs", not
    // "employees" (Porter's stem "employe"); accents folded.
    const staff = rendered('<p>Staff <i>employed</i>, it employs; employees. Café cafés.</p>');
    markMatches(staff, '', { spans: null, term: 'employ CAFE' });
    expect(marked(staff)).toEqual(['employed', 'employs', 'Café', 'cafés']);
  });

  it('marks what search highlights when an exclusion is itself excluded', () => {
    // The query language (contract/keyword-query.ts) reads `NOT NOT rates` and `held --rates`
    // as wanting rates, and search highlights them: the preview marks them too.
    const twice = rendered(HTML);
    markMatches(twice, PLAIN, { spans: null, term: 'NOT NOT rates' });
    expect(marked(twice)).toEqual(['rates', 'Rates', 'rate']);
    const dashes = rendered('<p>Central banks held rates.</p>');
    markMatches(dashes, '', { spans: null, term: 'held --rates' });
    expect(marked(dashes)).toEqual(['held', 'rates']);
  });

  it('takes the marks out again, leaving the same text nodes', () => {
    const root = rendered(HTML);
    const first = root.querySelector('p')?.firstChild;
    markMatches(root, PLAIN, { spans: null, term: 'rates' });
    clearMarks(root);
    expect(root.innerHTML).toBe(HTML);
    expect(root.querySelector('p')?.firstChild).toBe(first);
  });

  it('writes plain text as escaped paragraphs', () => {
    expect(plainTextHtml('a <b> & c\n\n\n"d"')).toBe(
      '<p>a &lt;b&gt; &amp; c</p><p>&quot;d&quot;</p>',
    );
  });
});
