import { beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_INDEPENDENT, type Harness } from './harness';
import { search, useSearchFixture } from './search-api-fixture';

// Storage-independent: bad bodies are refused by validation before the engine runs.
describe.each(STORAGE_INDEPENDENT)('search calls refusing bad bodies on %s', (storage) => {
  const fixture = useSearchFixture(storage);
  let h: Harness;
  let token: string;
  beforeAll(() => {
    h = fixture.h();
    token = fixture.token();
  });

  it('refuses bad bodies with a 400 naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/search', { q: 'repo', colour: 'red' }, 'colour: unknown field not allowed'],
      ['/search', { num_docs: 101 }, 'num_docs: num_docs must be between 0 and 100'],
      ['/search', { start_from: -1 }, 'start_from: start_from must be between 0 and 10000'],
      [
        '/search',
        { timezone: 'Mars/Olympus_Mons' },
        'timezone: timezone must be an IANA time zone such as Europe/London',
      ],
      [
        '/search',
        { date_range: { startDate: '31-02-2025' } },
        'date_range.startDate: dates are real calendar days',
      ],
      [
        '/search',
        { date_range: { startDate: '2025-03-01' } },
        'date_range.startDate: dates are DD-MM-YYYY',
      ],
      [
        '/search',
        { date_range: { startDate: '05-03-2025', endDate: '04-03-2025' } },
        'date_range.endDate: endDate 04-03-2025 is before startDate 05-03-2025',
      ],
      ['/search', { q: 'x'.repeat(5001) }, 'q: q must be at most 5000 characters'],
      [
        '/search',
        { sort: 'popular' },
        `sort: sort must be one of relevance, latest, oldest, updated_latest, updated_oldest, size_largest, size_smallest, attachments_with, attachments_without, company_desc, company_asc, category_desc, category_asc`,
      ],
      [
        '/search',
        { search_type: 'other_web' },
        'search_type: search_type must be needl_web or shared_data',
      ],
      ['/search', { tab: 'today' }, expect.stringMatching(/^tab: /)],
      ['/search/tags', { sort: 'size' }, 'sort: sort must be count or name'],
      [
        '/search/exchanges',
        { filter: { exchanges: { Country: 'UK' } } },
        'filter.exchanges.Country: Country must be India, US or NZ',
      ],
    ];
    for (const [path, body, message] of cases) {
      const res = await h.call('POST', path, { token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.message).toEqual(message);
    }
    // 5000 characters is still a query.
    expect((await search(h, token, { q: 'x'.repeat(5000) })).status).toBe(200);
  });
});
