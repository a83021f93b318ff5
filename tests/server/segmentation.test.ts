import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseKeywordQuery } from '../../contract/keyword-query';
import { htmlToText, sanitizeHtml } from '../../server/documents/sanitize';
import { MAX_TEXT } from '../../server/content/store';
import { splitSentences } from '../../server/assistant/sentences';
import { engineFor } from '../../server/search/engines';
import { MAX_PASSAGE, MAX_PASSAGES, splitPassages } from '../../server/search/passages';
import { addDocs, news } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';
import {
  engineQuery,
  scopeOf,
  SOURCES,
  titleSet,
  writeEngineFixture,
  type Fixture,
} from './search-engine-fixture';

/**
 * Filings segmented like filings (issue 16): sentences split at bullets and list items, table
 * rows units of their own, passages that start and end at sentence boundaries, and the whole of
 * a long document indexed. Real input: the 10-K sample in tests/fixtures/sec-10k/, in both of
 * the shapes it arrives in: a section's lines ("\n"), and the same section through a feed (one
 * <p> per line, stored with blank lines between them).
 */

const section = (filing: string, item: 'item1' | 'item1a' | 'item7' | 'item7a'): string =>
  // The data set's sections start with a stray '>' (a quoting artefact of its source).
  (
    JSON.parse(
      readFileSync(new URL(`../fixtures/sec-10k/${filing}.json`, import.meta.url), 'utf8'),
    ) as Record<string, string>
  )[item].replace(/^>/, '');

const NIKE = '0000320187-23-000039';
const NETAPP = '0000950170-23-027948';
const FILINGS = [
  '0000106040-23-000024',
  NIKE,
  NETAPP,
  '0000950170-23-033201',
  '0001096906-23-001489',
  '0001137789-23-000049',
  '0001327567-23-000024',
  '0001558370-23-011516',
  '0001564708-23-000368',
  '0001650372-23-000040',
];

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The section as a feed delivers it (a <p> per line), turned into text as the store does. */
const asFeed = (text: string) =>
  htmlToText(
    sanitizeHtml(
      text
        .split('\n')
        .map((line) => `<p>${escapeHtml(line)}</p>`)
        .join('\n'),
    ),
  );

const sentencesOf = (text: string) => splitSentences(text).map((s) => text.slice(s.start, s.end));
const passagesOf = (text: string) => splitPassages(text).map((p) => text.slice(p.start, p.end));

/** Every passage starts where a sentence starts and ends where one ends; none overlap. */
const expectSentenceBounds = (text: string) => {
  const sentences = splitSentences(text);
  const starts = new Set(sentences.map((s) => s.start));
  const ends = new Set(sentences.map((s) => s.end));
  const passages = splitPassages(text);
  // A sentence longer than a passage is the one thing cut inside (at a word).
  const long = sentences.filter((s) => s.end - s.start > MAX_PASSAGE);
  const inLong = (at: number) => long.some((s) => s.start < at && at < s.end);
  for (const p of passages) {
    expect(starts.has(p.start) || inLong(p.start)).toBe(true);
    expect(ends.has(p.end) || inLong(p.end)).toBe(true);
  }
  for (let i = 1; i < passages.length; i++) {
    expect(passages[i].start).toBeGreaterThan(passages[i - 1].end);
  }
  // No sentence straddles two passages, and every sentence is in one: the text to its end.
  let j = 0;
  for (const s of sentences) {
    if (s.end - s.start > MAX_PASSAGE) continue;
    while (passages[j].end < s.end) j++;
    expect(passages[j].start).toBeLessThanOrEqual(s.start);
  }
  expect(passages[passages.length - 1].end).toBe(sentences[sentences.length - 1].end);
  return passages;
};

const NBSP = '\u00a0';
const BULLET_1 =
  `In fiscal 2023, NIKE, Inc. achieved record Revenues of $51.2${NBSP}billion, which ` +
  'increased 10% and 16% on a reported and currency-neutral basis, respectively';
const BULLET_2 =
  'NIKE Direct revenues grew 14% from $18.7 billion in fiscal 2022 to $21.3 billion in fiscal ' +
  '2023, and represented approximately 44% of total NIKE Brand revenues for fiscal 2023';
const BULLET_5 = `We returned $7.5${NBSP}billion to our shareholders in fiscal 2023 through share repurchases and dividends`;

describe('sentences of filings', () => {
  it('gives each bullet item as its own sentence, without its mark, in both shapes', () => {
    const lines = `FINANCIAL HIGHLIGHTS \n•\n${BULLET_1} \n•\n${BULLET_2}\n•\n${BULLET_5}`;
    const expected = ['FINANCIAL HIGHLIGHTS', BULLET_1, BULLET_2, BULLET_5];
    expect(sentencesOf(lines)).toEqual(expected);
    expect(sentencesOf(asFeed(lines))).toEqual(expected);
    // A feed's paragraphs exactly: blank lines around each mark.
    expect(asFeed(lines)).toBe(
      `FINANCIAL HIGHLIGHTS\n\n•\n\n${BULLET_1}\n\n•\n\n${BULLET_2}\n\n•\n\n${BULLET_5}`,
    );
  });

  it('begins a sentence at a mark at the start of a line', () => {
    expect(
      sentencesOf(
        'Our risks include:\n• lower demand\n● higher costs\n- tariffs; and\n– currency rates\n* Inventory.\n(a) the sale of our entity in Chile;\n(iv) the sale of Argentina;\n1. Revenues rose. Margins fell.\n2) Cash grew',
      ),
    ).toEqual([
      'Our risks include:',
      'lower demand',
      'higher costs',
      'tariffs; and',
      'currency rates',
      'Inventory.',
      'the sale of our entity in Chile;',
      'the sale of Argentina;',
      'Revenues rose.',
      'Margins fell.',
      'Cash grew',
    ]);
  });

  it('keeps a table row a unit of its own, never joined to the prose around it', () => {
    const text =
      'Revenues rose in every geography in fiscal 2023. The table below shows them\n' +
      'Revenues $ 51,217 $ 46,710 10 %\n' +
      'excluding currency changes. We expect growth to continue.';
    const expected = [
      'Revenues rose in every geography in fiscal 2023.',
      'The table below shows them',
      'Revenues $ 51,217 $ 46,710 10 %',
      'excluding currency changes.',
      'We expect growth to continue.',
    ];
    expect(sentencesOf(text)).toEqual(expected);
    expect(sentencesOf(asFeed(text))).toEqual(expected);
    // The same row as an HTML table stores as one line, a unit too.
    const table = htmlToText(
      sanitizeHtml(
        '<p>Results were strong.</p><table><tr><td>Revenues</td><td>$ 51,217</td><td>$ 46,710</td><td>10 %</td></tr></table><p>Costs rose.</p>',
      ),
    );
    expect(sentencesOf(table).map((s) => s.replace(/\s+/g, ' '))).toEqual([
      'Results were strong.',
      'Revenues $ 51,217 $ 46,710 10 %',
      'Costs rose.',
    ]);
  });

  it('reads a table whose cells are lines as rows: a label and its figures, "(6)" no list mark', () => {
    expect(
      sentencesOf(
        'Net income\n$\n5,070\n$\n6,046\nAdd: Interest expense (income), net\n(6)\n205\n' +
          'RETURN ON INVESTED CAPITAL\n31.5%\n46.5%\n(1)\nEquals Earnings before interest and taxes multiplied by the effective tax rate.',
      ),
    ).toEqual([
      'Net income\n$\n5,070\n$\n6,046',
      'Add: Interest expense (income), net\n(6)\n205',
      'RETURN ON INVESTED CAPITAL\n31.5%\n46.5%\n(1)',
      'Equals Earnings before interest and taxes multiplied by the effective tax rate.',
    ]);
  });

  it('goes on with a figure after a line ending inside a word (Western Digital\'s "decrease\\nd")', () => {
    expect(
      sentencesOf(
        'Net Revenue\nNet revenue decrease\nd \n34% in 2023 compared to 2022, primarily reflecting the supply-demand imbalance.\nFlash revenue decreased 38% in 2023.',
      ),
    ).toEqual([
      'Net Revenue',
      'Net revenue decrease\nd \n34% in 2023 compared to 2022, primarily reflecting the supply-demand imbalance.',
      'Flash revenue decreased 38% in 2023.',
    ]);
  });

  it("keeps a figure tagged on its own line inside its sentence (NetApp's deferred revenue)", () => {
    expect(
      sentencesOf(
        'We expect to recognize as revenue approximately \n51\n% of our deferred revenue and ' +
          'financed unearned services revenue balance in the next \n12\n months. Revenues by Channel (%)\nOEMs\n74 \n%\n75 \n%\nRetailers',
      ),
    ).toEqual([
      'We expect to recognize as revenue approximately \n51\n% of our deferred revenue and ' +
        'financed unearned services revenue balance in the next \n12\n months.',
      'Revenues by Channel (%)',
      'OEMs\n74 \n%\n75 \n%',
      'Retailers',
    ]);
  });

  it('goes on across a line broken inside a sentence, not across an unmarked list', () => {
    expect(
      sentencesOf(
        'EBIT Margin\n: Calculated as total NIKE, Inc. EBIT divided by total NIKE, Inc. Revenues. Our EBIT Margin calculation is as follows:\n' +
          'For each of 2023, 2022 and 2021, \nno single customer\naccounted for 10% or more of our net revenue.\n' +
          'Risks include the following:\nexchange, currency and tax controls;\nweaker protection of IP rights;',
      ),
    ).toEqual([
      'EBIT Margin\n: Calculated as total NIKE, Inc. EBIT divided by total NIKE, Inc. Revenues.',
      'Our EBIT Margin calculation is as follows:',
      'For each of 2023, 2022 and 2021, \nno single customer\naccounted for 10% or more of our net revenue.',
      'Risks include the following:',
      'exchange, currency and tax controls;',
      'weaker protection of IP rights;',
    ]);
  });

  it('reads "Item 7." as a reference, and a heading in capitals after it as a heading', () => {
    expect(
      sentencesOf(
        "For fiscal 2022 refer to Part II, Item 7. Management's Discussion and Analysis in our fiscal 2022 Form 10-K. We grew. ITEM 1A. RISK FACTORS",
      ),
    ).toEqual([
      "For fiscal 2022 refer to Part II, Item 7. Management's Discussion and Analysis in our fiscal 2022 Form 10-K.",
      'We grew.',
      'ITEM 1A.',
      'RISK FACTORS',
    ]);
  });
});

describe('passages of filings', () => {
  const item7 = section(NIKE, 'item7');

  it("start and end at sentence boundaries in Nike's MD&A, as lines and as a feed", () => {
    for (const [text, gap] of [
      [item7, '\n'],
      [asFeed(item7), '\n\n'],
    ]) {
      const passages = expectSentenceBounds(text).map((p) => text.slice(p.start, p.end));
      const at = passages.findIndex((p) => p.includes('achieved record Revenues of $51.2'));
      // The heading with the bullets it heads; each bullet whole.
      expect(passages[at]).toBe(
        `FINANCIAL HIGHLIGHTS${gap === '\n' ? ' ' : ''}${gap}•${gap}${BULLET_1}${gap === '\n' ? ' ' : ''}${gap}•${gap}${BULLET_2}`,
      );
      expect(
        passages[at - 1].endsWith(
          'while driving speed and responsiveness as we serve consumers globally.',
        ),
      ).toBe(true);
      expect(
        passages[at + 1].startsWith('Gross margin for the fiscal year decreased 250 basis points'),
      ).toBe(true);
      expect(Math.max(...passages.map((p) => p.length))).toBeLessThanOrEqual(MAX_PASSAGE);
    }
  });

  it('start and end at sentence boundaries in every section of the sample', () => {
    for (const filing of FILINGS) {
      for (const item of ['item1', 'item1a', 'item7', 'item7a'] as const) {
        const text = section(filing, item);
        if (splitSentences(text).length > 0) expectSentenceBounds(text);
      }
    }
  });

  it('never cut a table row, and cut a sentence only when it alone passes the maximum', () => {
    const prose = (n: number) =>
      `Segment ${n} revenues increased on higher demand for footwear and apparel across wholesale and direct channels.`;
    const row = (n: number) => `Segment ${n} revenues $ ${n},217 $ ${n},710 1${n} %`;
    const lines = Array.from({ length: 40 }, (_, n) => (n % 3 === 2 ? row(n) : prose(n)));
    const text = lines.join('\n');
    const passages = passagesOf(text);
    expect(passages.length).toBeGreaterThan(3);
    for (let n = 2; n < 40; n += 3) {
      expect(passages.filter((p) => p.includes(row(n)))).toHaveLength(1);
    }
    expect(passages.join('\n')).toBe(text);
    // One sentence of 3,000 characters: cut at words, the pieces at most MAX_PASSAGE.
    const long = `${'Revenue grew strongly '.repeat(140).trim()}.`;
    const pieces = passagesOf(`Short opening sentence.\n${long}\nA closing sentence.`);
    expect(pieces.every((p) => p.length <= MAX_PASSAGE)).toBe(true);
    expect(pieces[pieces.length - 1].endsWith('Revenue grew strongly.\nA closing sentence.')).toBe(
      true,
    );
  });

  it("reach the end of NetApp's 397,000 characters", () => {
    const text = section(NETAPP, 'item1');
    expect(text.length).toBe(397_358);
    const passages = expectSentenceBounds(text);
    expect(passages.length).toBeLessThanOrEqual(MAX_PASSAGES);
    const last = text.slice(passages[passages.length - 1].start, passages[passages.length - 1].end);
    expect(last).toContain('Deepak Ahuja');
    expect(last.endsWith('99')).toBe(true);
  });

  it('reach the end of a 1.5M-character text, passages growing so the ids suffice', () => {
    let text = '';
    for (let i = 0; text.length < 1_500_000; i++) {
      text += `${section(FILINGS[i % FILINGS.length], 'item7')}\n\n`;
    }
    text = `${text.slice(0, text.lastIndexOf('\n', 1_500_000))}\n\nThe very last sentence names zanzibarite.`;
    expect(text.length).toBeGreaterThan(1_490_000);
    const passages = expectSentenceBounds(text);
    expect(passages.length).toBeLessThanOrEqual(MAX_PASSAGES);
    expect(passages.length).toBeGreaterThan(MAX_PASSAGES / 2);
    const last = passages[passages.length - 1];
    expect(last.end).toBe(text.length);
    expect(text.slice(last.start, last.end)).toContain('The very last sentence names zanzibarite.');
  });
});

describe.each(STORAGES)('a long filing indexed whole on %s', (storage) => {
  let h: Harness;
  let f: Fixture;
  const netapp = section(NETAPP, 'item1');
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    f = await writeEngineFixture(h);
    await addDocs(h, SOURCES.us, [
      news('netapp-10k', 'NetApp, Inc. 10-K 2023', '', 5, {
        html: null,
        text: netapp,
        company_name: 'NetApp',
      }),
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('stores the whole text and finds a word of its last paragraph', async () => {
    const doc = await h.db
      .selectFrom('documents')
      .select(['id', 'plain_text'])
      .where('title', '=', 'NetApp, Inc. 10-K 2023')
      .executeTakeFirstOrThrow();
    // Once cut at 200,000 characters; the text as stored (spaces and tabs collapsed).
    expect(doc.plain_text.length).toBe(397_265);
    const pub = scopeOf(f.ada, { publicCorpus: true });
    expect(await titleSet(h, engineQuery('ahuja', pub))).toEqual(['NetApp, Inc. 10-K 2023']);
    const hits = await engineFor(h.db).passages(h.db, {
      expr: parseKeywordQuery('ahuja').expr!,
      scope: pub,
      documentIds: null,
      limit: 5,
    });
    expect(hits).toHaveLength(1);
    expect(hits[0].document_id).toBe(doc.id);
    expect(hits[0].end).toBe(doc.plain_text.length);
    expect(doc.plain_text.slice(hits[0].start, hits[0].end)).toContain('Deepak Ahuja');
  });

  it('cuts only past its bound, at a line, and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const huge = `Start.${'\n'.repeat(MAX_TEXT)}End.`;
    await addDocs(h, SOURCES.us, [news('huge', 'Huge memo', '', 5, { html: null, text: huge })]);
    const doc = await h.db
      .selectFrom('documents')
      .select(['plain_text'])
      .where('title', '=', 'Huge memo')
      .executeTakeFirstOrThrow();
    expect(doc.plain_text.length).toBe(MAX_TEXT);
    expect(MAX_TEXT).toBe(10_485_760);
    expect(warn.mock.calls).toEqual([
      [
        'document "Huge memo" (huge): text of 10485770 characters cut to 10485760 (the bound is 10485760)',
      ],
    ]);
  });
});
