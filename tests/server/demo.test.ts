import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileKeyword, textIndex } from '../../contract/keyword-query';
import { createHarness, STORAGES, type Harness } from './harness';

describe.each(STORAGES)('the demo workspace on %s', (storage) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(storage);
    token = (await h.signInDemo()).id_token;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows the demo user a few hundred documents across news, filings and research', async () => {
    const meta = (await h.call('GET', '/boards/home/metadata', { token })).body;
    expect(meta.count).toBeGreaterThanOrEqual(200);
    expect(meta.count).toBeLessThan(1000);
    const tabs = Object.fromEntries(
      meta.category_tabs.map((t: { label: string; data: number }) => [t.label, t.data]),
    );
    for (const tab of ['News', 'Indian Exchange', 'US Exchange', 'Research'])
      expect(tabs[tab], tab).toBeGreaterThan(0);
    const page = (
      await h.call('GET', '/boards/home/v2?num_docs=50&tab=india_capital_markets', { token })
    ).body.results;
    for (const card of page.documents) {
      expect(card.company_name).toMatch(/ Ltd$/);
      expect(card.security_code).toMatch(/^5\d{5}$/);
      expect(card.categories).toHaveLength(1);
    }
  });

  it('follows the built-in sources only (no live preset to fail offline), and has read a few documents', async () => {
    const followed = (await h.call('GET', '/source/status', { token })).body.results;
    const kinds = followed.map((s: { kind: string }) => s.kind);
    // Six desks, filings and research stored here; no SEC or BSE preset that needs the internet.
    expect(kinds).toEqual(['builtin', 'builtin', 'builtin', 'builtin', 'builtin', 'builtin']);
    const read = (await h.call('GET', '/doc/read_status', { token })).body;
    expect(read.deeplinks.length).toBeGreaterThan(0);
    const doc = await h.call('GET', `/doc/read_Status/${read.deeplinks[0]}`, { token });
    expect(doc.body.status).toBe('read');
  });

  it("notifies about documents the demo user can open: each names its document's title", async () => {
    const inbox = (await h.call('GET', '/notifications', { token })).body;
    expect(inbox.total).toBe(25);
    const about = inbox.results.filter((n: { link: string | null }) =>
      n.link?.startsWith('/preview/'),
    );
    expect(about).toHaveLength(20);
    for (const note of about) {
      const [, , source, deeplink] = note.link.split('/');
      const { results } = (await h.call('GET', `/doc/${source}?deeplink=${deeplink}`, { token }))
        .body;
      expect(note.title).toContain(`: ${results[0].title}`);
    }
  });

  it('has a custom feed whose boolean keyword query holds for every document in it', async () => {
    const [board] = (await h.call('GET', '/boards/v2', { token })).body.results;
    const { include, exclude } = board.definition.keywords;
    expect(include.some((k: { keyword: string }) => / (AND|OR|NOT) /.test(k.keyword))).toBe(true);
    const page = (await h.call('GET', `/boards/${board.board_id}/v2?num_docs=1000`, { token })).body
      .results;
    expect(page.count).toBeGreaterThan(0);
    for (const card of page.documents) {
      const { results } = (
        await h.call('GET', `/doc/${card.source}?deeplink=${card.deeplink}`, { token })
      ).body;
      const words = textIndex(results[0].title, results[0].body, results[0].categories.join('\n'));
      expect(
        include.some((k: { keyword: string }) => compileKeyword(k.keyword)(words)),
        card.title,
      ).toBe(true);
      expect(
        exclude.some((k: { keyword: string }) => compileKeyword(k.keyword)(words)),
        card.title,
      ).toBe(false);
    }
  });

  it("keeps the demo user's feeds from the analyst", async () => {
    const res = await h.call('POST', '/auth/signin', {
      body: { email: 'analyst@needl.ai', password: 'analyst-password' },
    });
    const analyst = res.body.id_token;
    expect(
      (await h.call('GET', '/boards/v2?hidden=true', { token: analyst })).body.results,
    ).toEqual([]);
    const [board] = (await h.call('GET', '/boards/v2', { token })).body.results;
    expect((await h.call('GET', `/boards/${board.board_id}/v2`, { token: analyst })).status).toBe(
      404,
    );
    expect((await h.call('GET', '/doc/read_status', { token: analyst })).body.deeplinks).toEqual(
      [],
    );
  });
});
