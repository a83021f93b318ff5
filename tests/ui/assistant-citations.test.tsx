import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Citation } from '../../contract/assistant';
import {
  answer,
  bot,
  chat,
  citation,
  preloadAssistant,
  renderAssistant,
  searchOf,
  searchResult,
} from './assistant-chat-fixtures';
import { rateDetail } from './search-fixtures';
import { setViewportWidth } from './shell-fake-workspace';

beforeAll(preloadAssistant, 60_000);
beforeEach(() => setViewportWidth(1600));
afterEach(() => cleanup());

const PDF_BOX = {
  coordinates: [
    { x: 10, y: 20 },
    { x: 110, y: 20 },
    { x: 110, y: 40 },
    { x: 10, y: 40 },
  ],
  width: 600,
  height: 800,
  page_number: 2,
};

/**
 * A document whose second paragraph is the cited passage (20-101 of its plain text), and a
 * citation of it whose answer sentence is supported by its second sentence alone (42-66 of
 * the passage, so 62-86 of the document).
 */
const DOC_BODY =
  'Markets were calm.\n\nCentral banks held rates steady in March. Inflation eased to 2.1%. Growth slowed.';
const DOC_CONTENT =
  '<p>Markets were calm.</p><p>Central banks held rates steady in March. Inflation eased to 2.1%. Growth slowed.</p>';
const PASSAGE = 'Central banks held rates steady in March. Inflation eased to 2.1%. Growth slowed.';

function sentenceCitation(patch: Partial<Citation> = {}): Citation {
  return citation('1', {
    document_highlight: PDF_BOX,
    context: PASSAGE,
    passage: { start: 20, end: 101 },
    highlight_indexes: [{ start: 42, end: 66 }],
    ...patch,
  });
}

function citedChat(cited = sentenceCitation()) {
  const data = answer({
    generated_answer: {
      answer: 'Inflation eased [1].',
      sentences: [{ sentence: 'Inflation eased [1].', citations: [cited] }],
    },
  });
  return { s1: chat([bot({ data })]) };
}

const docHandlers = {
  'doc.get': ({ deeplink }: { deeplink: string }) =>
    rateDetail({ deeplink, title: 'Rates story 1', content: DOC_CONTENT, body: DOC_BODY }),
};
const marks = (root: HTMLElement) => [...root.querySelectorAll('mark')].map((m) => m.textContent);

describe('citation markers', () => {
  it('link to the cited sentence and open it in the preview overlay with the viewer parameters', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: citedChat(),
      handlers: docHandlers,
    });
    const marker = await screen.findByRole('link', { name: 'Source 1: Rates story 1' });
    const href = new URL(marker.getAttribute('href')!, 'https://app.test');
    expect(href.pathname).toBe('/preview/reuters/d1');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      category_tab: 'rss_news',
      access_key: 'reuters',
      highlight: '62-86',
      boundingBox: '[10,20,110,40]',
      pageNumber: '2',
    });

    fireEvent.click(marker);
    await waitFor(() =>
      expect(searchOf(view.history)).toEqual({
        sessionId: 's1',
        'overlay-type': 'preview',
        'overlay-source': 'reuters',
        'overlay-category': 'rss_news',
        'overlay-deeplink': 'd1',
        'overlay-category_tab': 'rss_news',
        'overlay-access_key': 'reuters',
        'overlay-highlight': '62-86',
        'overlay-boundingBox': '[10,20,110,40]',
        'overlay-pageNumber': '2',
      }),
    );
    const panel = await screen.findByTestId('overlay');
    await within(panel).findByRole('heading', { level: 3, name: 'Rates story 1' });
    // The cited sentence, not the whole passage nor every occurrence of its words.
    await waitFor(() => expect(marks(panel)).toEqual(['Inflation eased to 2.1%.']));
    expect(within(panel).getByText('Cited passage on page 2')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Close panel' }));
    await waitFor(() => expect(searchOf(view.history)).toEqual({ sessionId: 's1' }));
  });

  it('open the full-screen preview on a tablet, marking the sentence', async () => {
    setViewportWidth(1000);
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: citedChat(),
      handlers: docHandlers,
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Source 1: Rates story 1' }));
    await waitFor(() => expect(view.history.location.pathname).toBe('/preview/reuters/d1'));
    expect(searchOf(view.history)).toMatchObject({
      highlight: '62-86',
      boundingBox: '[10,20,110,40]',
      pageNumber: '2',
    });
    const article = await screen.findByRole('article', { name: 'Rates story 1' });
    await waitFor(() => expect(marks(article)).toEqual(['Inflation eased to 2.1%.']));
  });

  it('mark each passage sentence that supports the answer when there are several', async () => {
    const cited = sentenceCitation({
      highlight_indexes: [
        { start: 42, end: 66 },
        { start: 0, end: 41 },
      ],
    });
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: citedChat(cited),
      handlers: docHandlers,
    });
    const marker = await screen.findByRole('link', { name: 'Source 1: Rates story 1' });
    const href = new URL(marker.getAttribute('href')!, 'https://app.test');
    expect(href.searchParams.get('highlight')).toBe('20-61,62-86');
    fireEvent.click(marker);
    const panel = await screen.findByTestId('overlay');
    await waitFor(() =>
      expect(marks(panel)).toEqual([
        'Central banks held rates steady in March.',
        'Inflation eased to 2.1%.',
      ]),
    );
  });

  it('mark the whole passage only when the citation names no supporting span', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: citedChat(sentenceCitation({ highlight_indexes: [] })),
      handlers: docHandlers,
    });
    const marker = await screen.findByRole('link', { name: 'Source 1: Rates story 1' });
    const href = new URL(marker.getAttribute('href')!, 'https://app.test');
    expect(href.searchParams.get('highlight')).toBe('20-101');
  });

  it('stay plain numbers when the citation makes no preview link (no key)', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: citedChat(citation('1', { access_key: null, public_access_key: null })),
    });
    const answerView = await screen.findByRole('article', { name: 'Answer' });
    await within(answerView).findByText('[1]');
    expect(within(answerView).queryByRole('link', { name: /Source 1/ })).toBeNull();
    expect(within(answerView).queryByRole('link', { name: 'View Source 1' })).toBeNull();
  });
});

describe('the sources list', () => {
  function threeSources() {
    const data = answer({
      generated_answer: {
        answer: 'A [1]. B [2]. C [3].',
        sentences: [
          { sentence: 'A [1].', citations: [sentenceCitation()] },
          { sentence: 'B [2].', citations: [citation('2', { url: 'javascript:alert(1)' })] },
          // A built-in document: text only, no original address.
          { sentence: 'C [3].', citations: [citation('3', { url: null, content_only: true })] },
        ],
      },
    });
    return { s1: chat([bot({ data })]) };
  }

  it('titles every row with a link to the in-app preview, and "Open original ↗" only for an http or https address', async () => {
    await renderAssistant({ path: '/ask-needl/full?sessionId=s1', chats: threeSources() });
    const sources = await screen.findByRole('region', { name: 'Sources' });
    const title = (n: string) => within(sources).getByRole('link', { name: `Rates story ${n}` });
    expect(title('1').getAttribute('href')).toBe(
      '/preview/reuters/d1?category_tab=rss_news&access_key=reuters&highlight=62-86&boundingBox=%5B10%2C20%2C110%2C40%5D&pageNumber=2',
    );
    expect(title('2').getAttribute('href')).toBe(
      '/preview/reuters/d2?category_tab=rss_news&access_key=reuters&highlight=14-24',
    );
    expect(title('3').getAttribute('href')).toBe(
      '/preview/reuters/d3?category_tab=rss_news&access_key=reuters&highlight=14-24',
    );
    for (const n of ['1', '2', '3']) {
      expect(title(n).getAttribute('target')).toBeNull();
      const viewSource = within(sources).getByRole('link', { name: `View Source ${n}` });
      expect(viewSource.getAttribute('href')).toBe(title(n).getAttribute('href'));
    }

    const original = within(sources).getByRole('link', { name: 'Open original 1' });
    expect(original.textContent).toBe('Open original ↗');
    expect(original.getAttribute('href')).toBe('https://example.com/story-1');
    expect(original.getAttribute('target')).toBe('_blank');
    expect(within(sources).queryByRole('link', { name: 'Open original 2' })).toBeNull();
    expect(within(sources).queryByRole('link', { name: 'Open original 3' })).toBeNull();
    expect(within(sources).getAllByText('Open original ↗')).toHaveLength(1);
    // What each quotes: the highlight with the words around it.
    expect(within(sources).getByText('Inflation eased to 2.1%.').tagName).toBe('MARK');
    expect(within(sources).getAllByText('held rates')).toHaveLength(2);
  });

  it("a title opens the cited sentence in the preview overlay, a built-in document's too", async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: threeSources(),
      handlers: docHandlers,
    });
    const sources = await screen.findByRole('region', { name: 'Sources' });
    fireEvent.click(within(sources).getByRole('link', { name: 'Rates story 1' }));
    await waitFor(() =>
      expect(searchOf(view.history)).toMatchObject({
        'overlay-type': 'preview',
        'overlay-deeplink': 'd1',
        'overlay-highlight': '62-86',
      }),
    );
    const panel = await screen.findByTestId('overlay');
    await waitFor(() => expect(marks(panel)).toEqual(['Inflation eased to 2.1%.']));

    fireEvent.click(within(sources).getByRole('link', { name: 'Rates story 3' }));
    await waitFor(() =>
      expect(searchOf(view.history)).toMatchObject({
        'overlay-type': 'preview',
        'overlay-deeplink': 'd3',
        'overlay-highlight': '14-24',
      }),
    );
  });
});

describe('search mode', () => {
  const results = [
    searchResult('1', ['Banks <em>held</em> rates', 'they <em>held</em> again']),
    searchResult('2', ['<b>bold</b> <img src=x onerror=alert(1)> <em>held</em> &amp; more']),
  ];
  const searchChat = () => ({
    s1: chat([
      bot({
        mode: 'search',
        streamingAnswer: '',
        data: answer({
          answer_type: 'SEARCH',
          retrieved_results: results,
          generated_answer: { answer: '', sentences: [] },
        }),
      }),
    ]),
  });

  it('counts the instances and steps through them, wrapping around at both ends', async () => {
    await renderAssistant({ path: '/ask-needl/full?sessionId=s1', chats: searchChat() });
    const found = await screen.findByRole('region', { name: 'Search results' });
    expect(within(found).getByText('3 instances found')).toBeTruthy();
    const current = () => found.querySelector('[aria-current="true"]')?.textContent;
    expect(within(found).getByText('1 of 3')).toBeTruthy();
    expect(current()).toBe('Banks held rates');
    fireEvent.click(within(found).getByRole('button', { name: 'Next instance' }));
    expect(current()).toBe('they held again');
    fireEvent.click(within(found).getByRole('button', { name: 'Next instance' }));
    expect(within(found).getByText('3 of 3')).toBeTruthy();
    fireEvent.click(within(found).getByRole('button', { name: 'Next instance' }));
    expect(within(found).getByText('1 of 3')).toBeTruthy();
    fireEvent.click(within(found).getByRole('button', { name: 'Previous instance' }));
    expect(within(found).getByText('3 of 3')).toBeTruthy();
    expect(current()).toBe('<b>bold</b> <img src=x onerror=alert(1)> held & more');
  });

  it('renders only <em> marks from snippets; everything else is text', async () => {
    await renderAssistant({ path: '/ask-needl/full?sessionId=s1', chats: searchChat() });
    const found = await screen.findByRole('region', { name: 'Search results' });
    expect(found.querySelector('b')).toBeNull();
    expect(found.querySelector('img')).toBeNull();
    expect([...found.querySelectorAll('em')].map((em) => em.textContent)).toEqual([
      'held',
      'held',
      'held',
    ]);
  });

  it('opens a result with the current instance marked', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: searchChat(),
    });
    const found = await screen.findByRole('region', { name: 'Search results' });
    fireEvent.click(within(found).getByRole('button', { name: 'Next instance' }));
    fireEvent.click(within(found).getByRole('button', { name: 'Result 1' }));
    await waitFor(() =>
      expect(searchOf(view.history)).toMatchObject({
        'overlay-type': 'preview',
        'overlay-deeplink': 'd1',
        'overlay-highlight': '10-15',
      }),
    );
  });
});

describe('assistant routes', () => {
  it('the full page shows the history panel beside the chat when history is on', async () => {
    await renderAssistant({ path: '/ask-needl/full', flags: { ask_needl_history: true } });
    expect(await screen.findByRole('complementary', { name: 'Chat history' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Chat' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Not available yet' })).toBeNull();
  });

  it('/ask-needl/history is a screen of its own', async () => {
    await renderAssistant({ path: '/ask-needl/history', flags: { ask_needl_history: true } });
    expect(await screen.findByRole('complementary', { name: 'Chat history' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Not available yet' })).toBeNull();
  });
});
