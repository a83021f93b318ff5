// Throwaway: measures the DONE line of answers and searches. Deleted after use.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { addDocs, news } from './documents-helpers';
import { askPath, dataLines, filingsReader, writeFilings } from './assistant-fixture';
import { createHarness, type Harness } from './harness';

const QUESTIONS = [
  "What are Nike's risks from foreign currency exchange rates?",
  'What supply chain risks does Western Digital describe?',
  'How do cybersecurity incidents affect the company?',
  "What was Nike's revenue in fiscal 2023?",
  'What market risks does FedEx face from fuel prices and interest rates?',
];
const DIR = new URL('../fixtures/sec-10k/', import.meta.url);
const SECTIONS = ['item1', 'item1a', 'item7', 'item7a'];

const measure = async (h: Harness, token: string, label: string) => {
  for (const mode of ['answer', 'search']) {
    for (const prompt of QUESTIONS) {
      const params: Record<string, string> = { prompt };
      if (mode === 'search') params.mode = 'search';
      const res = await h.app.request(askPath(params), { headers: { token } });
      const text = await res.text();
      const line = dataLines(text).find((l) => l.includes('"status":"DONE"'))!;
      const done = JSON.parse(line).data;
      const rr = done.retrieved_results as { highlights: string[]; highlight_indexes: unknown[] }[];
      console.log(
        `MEASURE ${label} ${mode} DONE=${Buffer.byteLength(line)} B | results=${rr.length} ` +
          `maxHighlights=${Math.max(0, ...rr.map((r) => r.highlights.length))} ` +
          `spans=${rr.map((r) => r.highlight_indexes.length).join(',')} ` +
          `retrieved_results=${Buffer.byteLength(JSON.stringify(done.retrieved_results))} B | ${prompt}`,
      );
    }
  }
};

describe('fixture (Item 1A, 45k)', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    await writeFilings(h);
    ({ token } = await filingsReader(h));
  });
  afterAll(async () => h?.close());
  it('measures', () => measure(h, token, 'fixture'), 120_000);
});

describe('full 10-Ks (ten filings, four sections each)', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    const companies = JSON.parse(readFileSync(new URL('companies.json', DIR), 'utf8')) as {
      file: string;
      company: string;
    }[];
    for (const c of companies) {
      const filing = JSON.parse(readFileSync(new URL(c.file, DIR), 'utf8')) as Record<string, string>;
      await addDocs(
        h,
        'demo_us_filings',
        SECTIONS.filter((s) => filing[s]).map((s, i) =>
          news(`${c.file}-${s}`, `${c.company} 10-K 2023: ${s}`, '', 30 + i, {
            html: null,
            text: filing[s].replace(/^>/, ''),
            company_name: c.company,
            category: '10-K',
          }),
        ),
      );
    }
    ({ token } = await filingsReader(h));
  }, 300_000);
  afterAll(async () => h?.close());
  it('measures', () => measure(h, token, 'full'), 300_000);
});
