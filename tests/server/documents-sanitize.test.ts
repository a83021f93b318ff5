import { describe, expect, it } from 'vitest';
import { absoluteUrl, htmlToText, sanitizeHtml } from '../../server/documents/sanitize';

const BASE = 'https://news.example.com/markets/story.html';

describe('the HTML sanitiser', () => {
  it('drops scripts, styles, iframes, forms and their content', () => {
    const out = sanitizeHtml(
      '<p>Rates held</p><script>alert(1)</script><style>p{color:red}</style>' +
        '<iframe src="https://evil.example/"></iframe><form action="/x"><input name="q"></form>' +
        '<object data="x.swf"></object><noscript>hidden</noscript>',
      BASE,
    );
    expect(out).toBe('<p>Rates held</p>');
  });

  it('drops every event handler and inline style', () => {
    const out = sanitizeHtml(
      '<p onclick="steal()" style="x">Text</p><img src="https://cdn.example/a.png" onerror="steal()" onload="x()">',
      BASE,
    );
    expect(out).toBe('<p>Text</p><img src="https://cdn.example/a.png" />');
  });

  it('never lets a javascript:, data: or vbscript: link through', () => {
    const out = sanitizeHtml(
      '<a href="javascript:alert(1)">a</a><a href=" JaVaScRiPt:alert(1)">b</a>' +
        '<a href="data:text/html,<script>x</script>">c</a><a href="vbscript:msgbox">d</a>' +
        '<a href="&#106;avascript:alert(1)">e</a>',
      BASE,
    );
    expect(out).toBe('<a>a</a><a>b</a><a>c</a><a>d</a><a>e</a>');
  });

  it('makes relative links absolute against the page, with no opener or referrer', () => {
    const out = sanitizeHtml(
      '<a href="/markets/rbi">RBI</a> <a href="next.html">next</a> <a href="mailto:desk@example.com">mail</a>',
      BASE,
    );
    expect(out).toBe(
      '<a href="https://news.example.com/markets/rbi" rel="noopener noreferrer nofollow">RBI</a> ' +
        '<a href="https://news.example.com/markets/next.html" rel="noopener noreferrer nofollow">next</a> ' +
        '<a href="mailto:desk@example.com" rel="noopener noreferrer nofollow">mail</a>',
    );
  });

  it('drops a relative link when there is no page to resolve it against', () => {
    expect(sanitizeHtml('<a href="/rbi">RBI</a>', null)).toBe('<a>RBI</a>');
  });

  it('keeps images only from https', () => {
    const out = sanitizeHtml(
      '<img src="http://cdn.example/a.png"><img src="/chart.png" alt="chart">' +
        '<img src="data:image/png;base64,AAAA"><img src="//cdn.example/b.png">',
      BASE,
    );
    expect(out).toBe(
      '<img alt="chart" src="https://news.example.com/chart.png" />' +
        '<img src="https://cdn.example/b.png" />',
    );
  });

  it('turns HTML into readable text without addresses or images', () => {
    const text = htmlToText(
      '<h2>Policy</h2><p>The <a href="https://x.example/">committee</a> voted 4-2.</p>' +
        '<img src="https://x.example/a.png" alt="chart"><ul><li>Repo 6.50%</li><li>CRR 4%</li></ul>',
    );
    expect(text).toBe('Policy\n\nThe committee voted 4-2.\n\n * Repo 6.50%\n * CRR 4%');
  });
});

describe('absoluteUrl: the one rule for links of feeds, pages, filings and stored HTML', () => {
  it('resolves a relative address against its page, and keeps http and https only', () => {
    expect(absoluteUrl('/markets/rbi', BASE)).toBe('https://news.example.com/markets/rbi');
    expect(absoluteUrl('  next.html ', BASE)).toBe('https://news.example.com/markets/next.html');
    expect(absoluteUrl('http://plain.example/a', null)).toBe('http://plain.example/a');
    expect(absoluteUrl('mailto:desk@example.com', BASE)).toBeNull();
    expect(absoluteUrl('javascript:alert(1)', BASE)).toBeNull();
    expect(absoluteUrl('ftp://files.example/a', BASE)).toBeNull();
  });

  it('takes the schemes a caller keeps', () => {
    expect(absoluteUrl('mailto:desk@example.com', BASE, ['mailto:'])).toBe(
      'mailto:desk@example.com',
    );
    expect(absoluteUrl('http://cdn.example/a.png', BASE, ['https:'])).toBeNull();
  });

  it('is null for no address, a blank one, or a relative one with nothing to resolve against', () => {
    expect(absoluteUrl(null, BASE)).toBeNull();
    expect(absoluteUrl(undefined, BASE)).toBeNull();
    // A blank link is no link: not the address of the page it came from.
    expect(absoluteUrl('   ', BASE)).toBeNull();
    expect(absoluteUrl('/markets/rbi', null)).toBeNull();
  });
});
