import { describe, expect, it } from 'vitest';
import { feedXml, readCompanies } from '../../eval/assistant/workspace';
import { ask, NOT_FOUND } from './assistant-fixture';
import { STORAGE_INDEPENDENT } from './harness';
import { ingestSuite } from './ingest-suite';

/**
 * Issue 16's acceptance, as a new user meets it: they follow feeds of real 10-K filings (Nike's
 * and Western Digital's four sections each, RSS served from 127.0.0.1, followed through
 * POST /connect/rss and stored by the runner: no company_name, the filer is in the titles), then
 * ask. About a company with no filing there: the decline, nothing cited. About one that is: the
 * figure, cited to that company's passage.
 */
describe.each(STORAGE_INDEPENDENT)(
  'a new user asking about the filings they follow, on %s',
  (storage) => {
    const s = ingestSuite(storage);
    const companies = readCompanies().filter(
      (c) => c.short === 'Nike' || c.short === 'Western Digital',
    );

    const followFilings = async () => {
      expect(companies.map((c) => c.company)).toEqual([
        'Western Digital Corporation',
        'NIKE, Inc.',
      ]);
      for (const c of companies) {
        const path = s.path(`${c.short.replace(' ', '-')}.xml`);
        s.server.set(path, {
          body: feedXml(c),
          headers: { 'content-type': 'application/rss+xml; charset=utf-8' },
        });
        const source = await s.follow(s.server.url(path));
        await s.runner.runDue();
        expect(await s.status(source.source_id)).toMatchObject({ state: 'ok', items: 4 });
      }
    };

    it('declines a company with no filing there, and cites the named company for one there', async () => {
      await followFilings();
      const token = await s.auth();

      const absent = await ask(s.h, token, {
        prompt: "What was Microsoft's revenue in fiscal 2023?",
      });
      expect(absent.done?.generated_answer.answer).toBe(NOT_FOUND);
      expect(absent.done?.generated_answer.sentences.flatMap((x) => x.citations)).toEqual([]);
      expect(absent.done?.answer_quality).toBe('LOW');

      const nike = await ask(s.h, token, { prompt: 'How many people does Nike employ?' });
      const answer = nike.done!.generated_answer;
      expect(answer.answer).toContain('83,700');
      const citations = answer.sentences.flatMap((x) => x.citations);
      expect(citations.length).toBeGreaterThan(0);
      // Every citation is of Nike's filing; the one stating the figure marks it.
      expect([...new Set(citations.map((c) => c.title_label))]).toEqual([
        'NIKE, Inc. Form 10-K (fiscal 2023): Item 1. Business',
      ]);
      const stating = citations.find((c) =>
        c.highlight_indexes.some((h) => c.context.slice(h.start, h.end).includes('83,700')),
      );
      expect(stating).toBeDefined();

      const wd = await ask(s.h, token, { prompt: 'How many people does Western Digital employ?' });
      expect(wd.done!.generated_answer.answer).toContain('53,000');
      expect(
        wd
          .done!.generated_answer.sentences.flatMap((x) => x.citations)
          .every((c) => c.title_label.startsWith('Western Digital Corporation')),
      ).toBe(true);
    });
  },
);
