import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AskEvent } from '../../contract/assistant';
import type { RetrievedPassage } from '../../server/assistant/answerer';
import { registerAskRoute } from '../../server/assistant/ask-route';
import { judgeSentence, passageFits } from '../../server/assistant/evidence';
import { createOpenAiAnswerer } from '../../server/assistant/openai';
import { verifyAnswer } from '../../server/assistant/openai-verify';
import { analyseQuestion } from '../../server/assistant/question';
import { resolveAuth } from '../../server/auth/resolve';
import type { AppEnv } from '../../server/context';
import { aliasesOf, entityKey, filerInTitle, filerOf } from '../../server/search/entities';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai';
import {
  ask,
  askPath,
  dataLines,
  documentIdOf,
  filingsReader,
  NIKE_TITLE,
  NOT_FOUND,
  WDC_TITLE,
  writeFilings,
} from './assistant-fixture';
import { createHarness, STORAGE_INDEPENDENT, type Harness } from './harness';

/**
 * Issue 16, "answers a researcher can trust": the organisations a question names are
 * constraints. The index knows each document's filer (search/entities.ts); the question is read
 * for the filers it names (assistant/question.ts); a sentence answers only when it is about the
 * organisation named and holds what was asked, and the figure asked for (assistant/evidence.ts);
 * both answerers decline, with nothing cited, when no sentence does.
 */

// Real sentences of the two filings' Item 1 (Business), tests/fixtures/sec-10k.
const NIKE_EMPLOYEES =
  'As of May 31, 2023, we had approximately 83,700 employees worldwide, including retail and part-time employees.';
const WDC_EMPLOYEES = 'At the end of 2023, we employed approximately 53,000 people worldwide.';
const EMPLOY = 'How many people does Nike employ?';

describe('filers (search/entities.ts)', () => {
  it('keys an organisation by its name without legal forms, case or punctuation', () => {
    expect(entityKey('NIKE, Inc.')).toBe('nike');
    expect(entityKey('Nike Inc')).toBe('nike');
    expect(entityKey('Western Digital Corporation')).toBe('western digital');
    expect(entityKey('Western Digital Corp')).toBe('western digital');
  });

  it('calls an organisation by its names, short names and, in capitals, its initials', () => {
    expect(aliasesOf('Automatic Data Processing, Inc.')).toContainEqual({
      alias: 'adp',
      caps: true,
    });
    expect(aliasesOf('Western Digital Corporation')).toEqual([
      { alias: 'western digital corp', caps: false },
      { alias: 'western digital', caps: false },
      { alias: 'wd', caps: true },
    ]);
    // A ticker the document gives, in capitals only.
    expect(aliasesOf('NIKE, Inc.', 'NKE')).toEqual([
      { alias: 'nike inc', caps: false },
      { alias: 'nike', caps: false },
      { alias: 'nke', caps: true },
    ]);
    // "News" alone is a common word, never News Corporation's name.
    const news = aliasesOf('News Corporation');
    expect(news.map((a) => a.alias)).not.toContain('news');
    expect(news).toEqual([{ alias: 'news corp', caps: false }]);
  });

  it("reads a filing title's filer, and no filer from a headline", () => {
    expect(filerInTitle('NIKE Inc. 10-K 2023: Item 7')).toBe('NIKE Inc.');
    expect(filerInTitle('10-K - NIKE INC (0000320187) (Filer)')).toBe('NIKE INC');
    expect(filerInTitle('Seagate Technology Holdings plc Form 10-K (fiscal 2023)')).toBe(
      'Seagate Technology Holdings plc',
    );
    expect(filerInTitle('Markets rally on rate hopes')).toBeNull();
    expect(filerInTitle('Our annual report')).toBeNull();
    // company_name first, then the title, then the source's name.
    expect(
      filerOf({ company_name: 'NIKE, Inc.', title: 'Risk Factors', source_label: 'Filings' }),
    ).toBe('NIKE, Inc.');
    expect(
      filerOf({ company_name: null, title: 'Item 7', source_label: 'Nike SEC filings: 10-K' }),
    ).toBe('Nike');
    expect(
      filerOf({ company_name: null, title: 'Markets rally on rate hopes', source_label: 'Wire' }),
    ).toBeNull();
    // A news story about a company is not the company's: its filer is no one.
    expect(
      filerOf({
        company_name: 'NIKE, Inc.',
        title: 'Nike shares rise after results',
        source_label: 'Markets Wire',
        category_tab: 'rss_news',
      }),
    ).toBeNull();
  });
});

describe.each(STORAGE_INDEPENDENT)('questions about organisations on %s', (storage) => {
  let h: Harness;
  let token: string;
  let nike: string;
  let wdc: string;
  let fake: FakeOpenAi | null = null;
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    await writeFilings(h);
    ({ token } = await filingsReader(h));
    nike = await documentIdOf(h, NIKE_TITLE);
    wdc = await documentIdOf(h, WDC_TITLE);
  });
  afterEach(async () => {
    await fake?.close();
    fake = null;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('indexes each filing under its filer', async () => {
    const rows = await h.db
      .selectFrom('search_meta')
      .select(['document_id', 'entity'])
      .where('document_id', 'in', [nike, wdc])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.document_id, r.entity]))).toEqual({
      [nike]: 'nike',
      [wdc]: 'western digital',
    });
  });

  it('reads the organisations a question names: by name, by initials, or unknown', async () => {
    const employ = await analyseQuestion(h.db, EMPLOY);
    expect(employ.entities).toEqual([
      { key: 'nike', name: 'NIKE Inc.', mention: 'Nike', aliases: ['nike'] },
    ]);
    expect(employ.unknown).toEqual([]);
    expect(employ.groups.map((g) => g.word)).toEqual(['people', 'employ']);
    // "How many": a count.
    expect(employ.figure).toBe('count');

    const initials = await analyseQuestion(h.db, "What is WDC's revenue?");
    expect(initials.entities).toEqual([
      {
        key: 'western digital',
        name: 'Western Digital Corp',
        mention: 'WDC',
        // A ticker read from the name's initials (WD) and one more letter.
        aliases: ['western digital'],
      },
    ]);
    // Initials are read only in capitals.
    expect((await analyseQuestion(h.db, "What is wdc's revenue?")).entities).toEqual([]);

    const microsoft = await analyseQuestion(h.db, "What was Microsoft's revenue in 2023?");
    expect(microsoft.entities).toEqual([]);
    expect(microsoft.unknown).toEqual(['Microsoft']);
    expect(microsoft.groups.map((g) => g.word)).toEqual(['revenue']);
    expect(microsoft.soft).toEqual(['2023']);

    const both = await analyseQuestion(h.db, 'Compare Nike and Western Digital');
    expect(both.entities.map((e) => e.key).sort()).toEqual(['nike', 'western digital']);
    expect(both.unknown).toEqual([]);
  });

  it("judges a sentence by its organisation, the question's terms and the figure asked", async () => {
    const q = await analyseQuestion(h.db, EMPLOY);
    const nikeDoc = { entity: 'nike', title: NIKE_TITLE };
    // Western Digital's sentence holds the terms and a figure: it is still not Nike's.
    expect(
      judgeSentence(q, WDC_EMPLOYEES, { entity: 'western digital', title: WDC_TITLE }),
    ).toEqual({
      entity: null,
      entityOk: false,
      held: 2,
      figure: true,
      eligible: false,
      strong: false,
      near: false,
      strongParts: [false],
      whole: false,
    });
    expect(
      judgeSentence(
        q,
        'As of May 31, 2023, we had approximately 83,700 employees worldwide.',
        nikeDoc,
      ),
    ).toEqual({
      entity: 'nike',
      entityOk: true,
      held: 2,
      figure: true,
      eligible: true,
      strong: true,
      // The count stands beside the word asked about ("83,700 employees").
      near: true,
      strongParts: [true],
      whole: false,
    });
    expect(judgeSentence(q, NIKE_EMPLOYEES, nikeDoc)).toMatchObject({
      eligible: true,
      strong: true,
    });
    // The term, but no count.
    expect(
      judgeSentence(q, 'We rely on our employees to deliver our products to consumers.', nikeDoc),
    ).toEqual({
      entity: 'nike',
      entityOk: true,
      held: 2,
      figure: false,
      eligible: false,
      strong: false,
      near: false,
      strongParts: [false],
      whole: false,
    });
    // A document of no one (news) answers where its sentence names the organisation.
    const news = { entity: null, title: 'Sportswear makers add staff' };
    expect(
      judgeSentence(
        q,
        'Nike had about 83,700 employees at the end of May, the company said.',
        news,
      ),
    ).toEqual({
      entity: 'nike',
      entityOk: true,
      held: 2,
      figure: true,
      eligible: true,
      strong: true,
      near: true,
      strongParts: [true],
      whole: false,
    });
    expect(
      judgeSentence(q, 'Adidas had about 59,000 employees at the end of 2022, it said.', news),
    ).toMatchObject({ entity: null, entityOk: false, eligible: false });
  });

  it("declines a question about an organisation of which no document is in the user's data", async () => {
    const res = await ask(h, token, { prompt: "What was Microsoft's revenue in fiscal 2023?" });
    expect(res.status).toBe(200);
    expect(res.errors).toEqual([]);
    expect(res.streamed).toBe(NOT_FOUND);
    expect(res.done).toMatchObject({
      answer_type: 'ANSWER',
      retrieved_results: [],
      generated_answer: { answer: NOT_FOUND, sentences: [] },
      followup_questions: [],
      answer_quality: 'LOW',
    });
  });

  it("cites only Nike's filing for a question about Nike, and only Western Digital's for one about it", async () => {
    // Item 1A: "...we offer certain customers the opportunity to place orders five to six
    // months ahead of delivery under our futures ordering program."
    const orders = await ask(h, token, {
      prompt: "How far ahead of delivery can Nike's customers place orders?",
    });
    const nikeSentences = orders.done!.generated_answer.sentences;
    expect(nikeSentences.length).toBeGreaterThan(0);
    expect(nikeSentences[0].sentence).toContain('five to six months ahead of delivery');
    for (const s of nikeSentences) {
      expect(s.citations.length).toBeGreaterThan(0);
      for (const c of s.citations) expect(c.document_id).toBe(nike);
    }
    expect(orders.done!.retrieved_results.map((r) => r.document_id)).toEqual([nike]);

    // Item 1A: "We are contractually obligated to pay for 50% of the fixed costs of Flash
    // Ventures regardless of whether we order any flash-based memory, ..."
    const flash = await ask(h, token, {
      prompt: 'What percentage of the fixed costs of Flash Ventures must Western Digital pay?',
    });
    const wdcSentences = flash.done!.generated_answer.sentences;
    expect(wdcSentences.length).toBeGreaterThan(0);
    expect(wdcSentences[0].sentence).toMatch(
      /^We are contractually obligated to pay for 50% of the fixed costs of Flash Ventures/,
    );
    expect(flash.done!.answer_quality).toBe('HIGH');
    for (const s of wdcSentences) {
      for (const c of s.citations) {
        expect(c.document_id).not.toBe(nike);
        expect(c.document_id).toBe(wdc);
      }
    }
  });

  it('declines a comparison when one of the organisations it names has no document', async () => {
    const res = await ask(h, token, { prompt: 'Compare Nike and Adidas' });
    expect(res.streamed).toBe(NOT_FOUND);
    expect(res.done).toMatchObject({
      generated_answer: { answer: NOT_FOUND, sentences: [] },
      answer_quality: 'LOW',
    });
  });

  it('never calls the model for an organisation with no document, and declines', async () => {
    fake = await startFakeOpenAi({ script: { reply: 'Microsoft earned $211.9 billion [1].' } });
    const app = new OpenAPIHono<AppEnv>();
    app.use('/api/*', resolveAuth({ db: h.db, now: () => h.clock.now }));
    registerAskRoute(
      app,
      { product: 'needl', now: () => h.clock.now, log: () => undefined },
      createOpenAiAnswerer({ baseUrl: fake.baseUrl, model: 'm' }),
    );
    const res = await app.request(
      askPath({ prompt: "What was Microsoft's revenue in fiscal 2023?" }),
      { headers: { token } },
    );
    expect(res.status).toBe(200);
    const events = dataLines(await res.text()).map((l) => JSON.parse(l) as AskEvent);
    const done = events.at(-1);
    expect(done?.status).toBe('DONE');
    expect(done?.status === 'DONE' && done.data).toMatchObject({
      generated_answer: { answer: NOT_FOUND, sentences: [] },
      answer_quality: 'LOW',
    });
    expect(
      events.flatMap((e) => (e.status === 'GENERATED_ANSWER' ? [e.data.answer_chunk] : [])),
    ).toEqual([NOT_FOUND]);
    expect(fake.requests).toHaveLength(0);

    // The same when another organisation's passages were the only ones read.
    const q = await analyseQuestion(h.db, "What was Microsoft's revenue in fiscal 2023?");
    const result = await createOpenAiAnswerer({ baseUrl: fake.baseUrl, model: 'm' }).answer(
      {
        question: q.question,
        analysis: q,
        passages: [passage(1, nike, NIKE_TITLE, 'nike', NIKE_EMPLOYEES)],
        history: [],
        signal: new AbortController().signal,
        now: h.clock.now,
      },
      { chunk: () => undefined },
    );
    expect(result).toEqual({ answer: NOT_FOUND, sentences: [], quality: 'LOW', followups: [] });
    expect(fake.requests).toHaveLength(0);
  });

  it("drops the model's citation of another organisation's passage, and its marker", async () => {
    const q = await analyseQuestion(h.db, EMPLOY);
    const passages = [
      passage(1, nike, NIKE_TITLE, 'nike', NIKE_EMPLOYEES),
      passage(2, wdc, WDC_TITLE, 'western digital', WDC_EMPLOYEES),
    ];
    const reply =
      'Nike had approximately 83,700 employees worldwide [1]. ' +
      'It employed approximately 53,000 people worldwide at the end of 2023 [2].';
    fake = await startFakeOpenAi({ script: { reply } });
    const result = await createOpenAiAnswerer({ baseUrl: fake.baseUrl, model: 'm' }).answer(
      {
        question: EMPLOY,
        analysis: q,
        passages,
        history: [],
        signal: new AbortController().signal,
        now: h.clock.now,
      },
      { chunk: () => undefined },
    );
    // Western Digital's passage is not even offered to the model.
    const system = fake.requests[0].body.messages?.[0]?.content ?? '';
    expect(system).toContain(`[1] ${NIKE_TITLE}\n`);
    expect(system).not.toContain(WDC_TITLE);
    expect(system).not.toContain('53,000');
    expect(result.answer).toBe(
      'Nike had approximately 83,700 employees worldwide [1]. ' +
        'It employed approximately 53,000 people worldwide at the end of 2023.',
    );
    expect(result.sentences.map((s) => [s.sentence, s.cites.map((c) => c.n)])).toEqual([
      ['Nike had approximately 83,700 employees worldwide.', [1]],
      ['It employed approximately 53,000 people worldwide at the end of 2023.', []],
    ]);

    // Passage 2 does say the second sentence: the citation goes only because it is another
    // organisation's (evidence.ts passageFits).
    const fits = (p: RetrievedPassage) => passageFits(q, p);
    expect(verifyAnswer(reply, passages).answer).toBe(reply);
    expect(verifyAnswer(reply, passages, fits).answer).toBe(result.answer);
  });
});

const passage = (
  n: number,
  documentId: string,
  title: string,
  entity: string | null,
  text: string,
): RetrievedPassage => ({
  n,
  document_id: documentId,
  title,
  source_label: 'US Filings (demo)',
  unix: 1_700_000_000,
  start: 0,
  end: text.length,
  text,
  score: 1,
  entity,
});
