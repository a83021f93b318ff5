import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesOf, newUser } from './documents-helpers';
import { createHarness, STORAGES, type Harness } from './harness';

/**
 * Notebooks and notes (contract/notebooks.ts): create, list, rename, delete notebooks; create,
 * read, snip, delete notes; the notes pull; every call scoped to the caller, on every storage
 * backend.
 */
describe.each(STORAGES)('notebooks on %s', (storage) => {
  let h: Harness;
  let a: { token: string };
  let b: { token: string };
  beforeAll(async () => {
    h = await createHarness(storage, { seed: false });
    a = await newUser(h);
    b = await newUser(h, 'Grace Hopper');
  });
  afterAll(async () => {
    await h?.close();
  });

  const paragraph = (text: string, href?: string) => ({
    type: 'paragraph',
    children: [href ? { text, href } : { text }],
  });

  it('creates notebooks trimmed, once per name, the default notebook first', async () => {
    const made = await h.call('PUT', '/notebook', {
      token: a.token,
      body: { name: '  Rates  ', id: 'nb-rates' },
    });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      results: {
        notebookId: 'nb-rates',
        created: true,
        notebook: {
          notebook_id: 'nb-rates',
          notebook_name: 'Rates',
          notebook_type: 'user',
          notes: 0,
          notebook_created_at: '2025-03-03T10:00:00.000Z',
          notebook_updated_at: '2025-03-03T10:00:00.000Z',
          default: false,
        },
      },
    });
    // The same name again (another case, another id): the existing notebook.
    const again = await h.call('PUT', '/notebook', {
      token: a.token,
      body: { name: 'RATES', id: 'nb-other' },
    });
    expect(again.body.results).toMatchObject({ notebookId: 'nb-rates', created: false });
    // The chat's notebook: made once, the default, first in the list.
    const bot = await h.call('PUT', '/notebook?botNotebook=true', {
      token: a.token,
      body: { name: 'bot_placeholder' },
    });
    expect(bot.body.results.notebook).toMatchObject({
      notebook_name: 'bot_placeholder',
      notebook_type: 'default',
      default: true,
    });
    const botAgain = await h.call('PUT', '/notebook?botNotebook=true', {
      token: a.token,
      body: {},
    });
    expect(botAgain.body.results.notebookId).toBe(bot.body.results.notebookId);
    const list = await h.call('GET', '/notebook/list', { token: a.token });
    expect(list.body.results.map((n: { notebook_name: string }) => n.notebook_name)).toEqual([
      'bot_placeholder',
      'Rates',
    ]);
    const changes = (await changesOf(h, a.token)).filter((c) => c.entity === 'notebook');
    expect(changes.map((c) => [c.entity_id, c.op])).toEqual([
      ['nb-rates', 'upsert'],
      [bot.body.results.notebookId, 'upsert'],
    ]);
  });

  it('creates, reads, snips and lists notes, counting them on the notebook', async () => {
    const made = await h.call('PUT', '/note/create/nb-rates', {
      token: a.token,
      body: {
        name: 'Repo rate',
        id: 'note-1',
        // The spec's form: a JSON string of rich-text nodes.
        document: JSON.stringify([
          paragraph('The repo rate stays at 6.5%.'),
          paragraph('Source', '/preview/demo_research/doc-1?pageNumber=2'),
        ]),
      },
    });
    expect(made.status).toBe(200);
    expect(made.body.results.id).toBe('note-1');
    expect(made.body.results.note).toEqual({
      id: 'note-1',
      notebook_id: 'nb-rates',
      name: 'Repo rate',
      document: [
        { type: 'paragraph', children: [{ text: 'The repo rate stays at 6.5%.' }] },
        {
          type: 'paragraph',
          children: [{ text: 'Source', href: '/preview/demo_research/doc-1?pageNumber=2' }],
        },
      ],
      created_at: '2025-03-03T10:00:00.000Z',
      updated_at: '2025-03-03T10:00:00.000Z',
    });
    await h.call('PUT', '/note/create/nb-rates', {
      token: a.token,
      body: { name: 'Second', id: 'note-2', document: [paragraph('Two.')] },
    });
    const snipped = await h.call('POST', '/note/snip/note-2', {
      token: a.token,
      body: { document: [paragraph('Two, edited.')], name: 'Second note' },
    });
    expect(snipped.status).toBe(200);
    expect(snipped.body.results).toMatchObject({
      name: 'Second note',
      document: [{ type: 'paragraph', children: [{ text: 'Two, edited.' }] }],
    });
    const one = await h.call('GET', '/note/note-2', { token: a.token });
    expect(one.body.results.name).toBe('Second note');
    const book = await h.call('GET', '/notebook/nb-rates', { token: a.token });
    expect(book.body.results.notebook.notes).toBe(2);
    // Newest first; made at the same moment (the test clock stands still): by id, descending.
    expect(book.body.results.notes.map((n: { id: string }) => n.id)).toEqual(['note-2', 'note-1']);
    expect(book.body.results.has_more).toBe(false);

    const page1 = await h.call('GET', '/note/list?limit=1', { token: a.token });
    expect(page1.body.notes.map((n: { id: string }) => n.id)).toEqual(['note-1']);
    expect([page1.body.cursor, page1.body.has_more]).toEqual(['note-1', true]);
    const page2 = await h.call('GET', '/note/list?limit=1&after=note-1', { token: a.token });
    expect(page2.body.notes.map((n: { id: string }) => n.id)).toEqual(['note-2']);
    expect([page2.body.cursor, page2.body.has_more]).toEqual(['note-2', false]);

    const noteChanges = (await changesOf(h, a.token)).filter((c) => c.entity === 'note');
    expect(noteChanges.map((c) => [c.entity_id, c.op])).toEqual([
      ['note-1', 'upsert'],
      ['note-2', 'upsert'],
      ['note-2', 'upsert'],
    ]);
    const last = (await changesOf(h, a.token)).at(-1)!;
    expect([last.entity, last.entity_id, last.data.notes]).toEqual(['notebook', 'nb-rates', 2]);
  });

  it('renames a notebook and refuses a name another notebook holds', async () => {
    await h.call('PUT', '/notebook', { token: a.token, body: { name: 'Energy', id: 'nb-energy' } });
    const renamed = await h.call('PUT', '/notebook/nb-energy', {
      token: a.token,
      body: { name: ' Power ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.results.notebook_name).toBe('Power');
    const taken = await h.call('PUT', '/notebook/nb-energy', {
      token: a.token,
      body: { name: 'rates' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('a notebook named "rates" already exists');
  });

  it('lets another user read, list or change none of it', async () => {
    expect((await h.call('GET', '/notebook/list', { token: b.token })).body).toEqual({
      results: [],
    });
    expect((await h.call('GET', '/note/list', { token: b.token })).body).toEqual({
      notes: [],
      cursor: null,
      has_more: false,
    });
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/notebook/nb-rates'],
      ['PUT', '/notebook/nb-rates', { name: 'Mine' }],
      ['DELETE', '/notebook/nb-rates'],
      ['GET', '/note/note-1'],
      ['POST', '/note/snip/note-1', { document: [] }],
      ['DELETE', '/note/note-1'],
      ['PUT', '/note/create/nb-rates', { name: 'Into a', document: [] }],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.call(method, path, { token: b.token, body });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    // b's own notebook of the same id is b's; a's is untouched.
    const mine = await h.call('PUT', '/notebook', {
      token: b.token,
      body: { name: 'Rates', id: 'nb-rates' },
    });
    expect(mine.body.results.created).toBe(true);
    await h.call('DELETE', '/notebook/nb-rates', { token: b.token });
    expect(
      (await h.call('GET', '/notebook/nb-rates', { token: a.token })).body.results.notes,
    ).toHaveLength(2);
    const bChanges = (await changesOf(h, b.token)).filter((c) =>
      ['notebook', 'note'].includes(c.entity),
    );
    expect(bChanges.map((c) => [c.entity, c.entity_id, c.op])).toEqual([
      ['notebook', 'nb-rates', 'upsert'],
      ['notebook', 'nb-rates', 'delete'],
    ]);
    // Without a session nothing answers.
    expect((await h.call('GET', '/notebook/list')).status).toBe(401);
  });

  it("finds notes by their words in the owner's search only, as they now stand", async () => {
    const titles = async (token: string, q: string) =>
      (
        (await h.call('POST', '/search', { token, body: { q } })).body.results as Array<{
          title_label: string;
        }>
      ).map((r) => r.title_label);
    await h.call('PUT', '/note/create/nb-rates', {
      token: a.token,
      body: { name: 'Bond yields', id: 'note-3', document: [paragraph('Gilts rallied sharply.')] },
    });
    expect(await titles(a.token, 'gilts')).toEqual(['Bond yields']);
    expect(await titles(b.token, 'gilts')).toEqual([]);
    await h.call('POST', '/note/snip/note-3', {
      token: a.token,
      body: { document: [paragraph('Treasuries slipped.')] },
    });
    expect(await titles(a.token, 'gilts')).toEqual([]);
    expect(await titles(a.token, 'treasuries')).toEqual(['Bond yields']);
    await h.call('DELETE', '/note/note-3', { token: a.token });
    expect(await titles(a.token, 'treasuries')).toEqual([]);
  });

  it('deletes a note, then a notebook with its notes, recording the changes', async () => {
    const del = await h.call('DELETE', '/note/note-2', { token: a.token });
    expect(del.body).toEqual({ deleted: 1 });
    expect((await h.call('GET', '/note/note-2', { token: a.token })).status).toBe(404);
    const book = await h.call('DELETE', '/notebook/nb-rates', { token: a.token });
    expect(book.body).toEqual({ deleted: 1 });
    expect((await h.call('GET', '/note/note-1', { token: a.token })).status).toBe(404);
    const last = (await changesOf(h, a.token)).at(-1)!;
    expect([last.entity, last.entity_id, last.op]).toEqual(['notebook', 'nb-rates', 'delete']);
  });
});

/** Bounds and sanitising: the same code on every backend, so one. */
describe('notebook and note input', () => {
  let h: Harness;
  let a: { token: string };
  beforeAll(async () => {
    h = await createHarness('sqlite', { seed: false });
    a = await newUser(h);
    await h.call('PUT', '/notebook', { token: a.token, body: { name: 'Inbox', id: 'nb-1' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses bad input with a message naming what is wrong', async () => {
    const empty = await h.call('PUT', '/notebook', { token: a.token, body: { name: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('name must not be empty');
    const long = await h.call('PUT', '/notebook', {
      token: a.token,
      body: { name: 'x'.repeat(101) },
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('name must be at most 100 characters');
    const notJson = await h.call('PUT', '/note/create/nb-1', {
      token: a.token,
      body: { name: 'n', document: '[{' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toContain('document must be a JSON array of rich-text nodes');
    const badType = await h.call('PUT', '/note/create/nb-1', {
      token: a.token,
      body: { name: 'n', document: [{ type: 'script', children: [{ text: 'x' }] }] },
    });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain(
      'type must be one of paragraph, heading, quote, list-item, code',
    );
    const tooMany = await h.call('PUT', '/note/create/nb-1', {
      token: a.token,
      body: {
        name: 'n',
        document: Array.from({ length: 501 }, () => ({
          type: 'paragraph',
          children: [{ text: 'x' }],
        })),
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('document holds at most 500 blocks');
    const leaf = await h.call('PUT', '/note/create/nb-1', {
      token: a.token,
      body: { name: 'n', document: [{ type: 'paragraph', children: [{ text: 'x', onclick: 1 }] }] },
    });
    expect(leaf.status).toBe(400);
  });

  it('drops unsafe links and sanitises a snipped selection of HTML', async () => {
    const made = await h.call('PUT', '/note/create/nb-1', {
      token: a.token,
      body: {
        name: 'Links',
        id: 'n-links',
        document: [
          {
            type: 'paragraph',
            children: [
              { text: 'bad', href: 'javascript:alert(1)' },
              { text: 'other host', href: '//evil.example.com/x' },
              { text: 'web', href: 'https://example.com/a' },
              { text: 'passage', href: '/preview/demo_research/d1?pageNumber=3' },
            ],
          },
        ],
      },
    });
    expect(made.body.results.note.document).toEqual([
      {
        type: 'paragraph',
        children: [
          { text: 'bad' },
          { text: 'other host' },
          { text: 'web', href: 'https://example.com/a' },
          { text: 'passage', href: '/preview/demo_research/d1?pageNumber=3' },
        ],
      },
    ]);
    const snip = await h.call('PUT', '/note/create/nb-1', {
      token: a.token,
      body: {
        name: 'Snip',
        id: 'n-snip',
        html: '<p>Demand holds.</p><script>alert(1)</script><p onclick="x()">Prices <b>rise</b>.</p>',
      },
    });
    expect(snip.status).toBe(200);
    expect(snip.body.results.note.document).toEqual([
      { type: 'paragraph', children: [{ text: 'Demand holds.' }] },
      { type: 'paragraph', children: [{ text: 'Prices rise.' }] },
    ]);
    // The document read back is the stored one, checked again on the way out.
    expect((await h.call('GET', '/note/n-snip', { token: a.token })).body.results.document).toEqual(
      snip.body.results.note.document,
    );
  });

  it('counts notebooks for the add_notebook gate', async () => {
    const messaging = await h.call('GET', '/stripe/messaging', { token: a.token });
    expect(messaging.status).toBe(200);
    expect(messaging.body.results.add_notebook).toEqual({ isEligible: true, message: null });
  });
});

/** The add_notebook gate (000 §6): the plan's notebooks, then an upsell and a refusal. */
describe('the add_notebook gate', () => {
  let h: Harness;
  afterAll(async () => {
    await h?.close();
  });

  it('refuses a notebook beyond the plan, with the upsell message, and says so in messaging', async () => {
    h = await createHarness('sqlite', {
      seed: false,
      uploads: { plans: { free: { storageBytes: 1048576, notebooks: 1 } } },
    });
    const a = await newUser(h);
    const first = await h.call('PUT', '/notebook', { token: a.token, body: { name: 'One' } });
    expect(first.status).toBe(200);
    const second = await h.call('PUT', '/notebook', { token: a.token, body: { name: 'Two' } });
    expect(second.status).toBe(400);
    expect(second.body.message).toBe(
      'Notebook limit reached. Your Free plan includes 1 notebooks.',
    );
    // An existing one is still answered (a retried create lands once).
    expect(
      (await h.call('PUT', '/notebook', { token: a.token, body: { name: 'one' } })).status,
    ).toBe(200);
    const messaging = await h.call('GET', '/stripe/messaging', { token: a.token });
    expect(messaging.body.results.add_notebook).toMatchObject({
      isEligible: false,
      message: {
        header: 'Notebook limit reached',
        subtext: 'Upgrade your plan to create more notebooks.',
      },
    });
  });
});
