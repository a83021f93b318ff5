import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_DEFINITION } from '../../contract/boards';
import { endpointPath, endpoints, type EndpointName } from '../../contract/endpoints';
import { createHarness, type Harness } from './harness';

/**
 * One bad body per endpoint that takes a body, and the field the 400 must name. The first
 * test fails when an endpoint with a body is added to the contract without a row here.
 */
const INVALID_BODIES: Partial<Record<EndpointName, { body: unknown; field: string }>> = {
  signUp: { body: { name: 'Ada', email: 'not-an-email', password: 'long-enough' }, field: 'email' },
  signIn: { body: { email: 'ada@example.com' }, field: 'password' },
  refresh: { body: { refresh_token: 'short' }, field: 'refresh_token' },
  signOut: { body: { refresh_token: 42 }, field: 'refresh_token' },
  forgotPassword: { body: { email: 'nope' }, field: 'email' },
  resetPassword: { body: { token: 'x'.repeat(43), password: 'short' }, field: 'password' },
  updatePreferences: { body: { nav_state: 'sideways' }, field: 'nav_state' },
  markNotificationsRead: { body: { ids: [] }, field: 'ids' },
  debugLogs: { body: { logData: '' }, field: 'logData' },
  analyticsReport: {
    body: {
      adblocker_installed: 'yes',
      mp_info: { event_name: 'x', distinct_id: 'd', email: 'e', name: 'n' },
    },
    field: 'adblocker_installed',
  },
  // Content (issue 6): documents, sources, boards.
  readStatus: { body: { deeplinks: ['d1'], status: 'seen' }, field: 'status' },
  markAllRead: { body: { before: 'yesterday' }, field: 'before' },
  markUnread: { body: { deeplinks: [] }, field: 'deeplinks' },
  setPriority: { body: { source_ids: [], priority: true }, field: 'source_ids' },
  follow: { body: { key: '' }, field: 'key' },
  followMany: { body: { keys: [] }, field: 'keys' },
  setSourceBoards: { body: { boards: 'b1' }, field: 'boards' },
  followRss: { body: { url: '' }, field: 'url' },
  followCustom: { body: { url: 42 }, field: 'url' },
  createBoard: { body: { board_name: '', definition: EMPTY_DEFINITION }, field: 'board_name' },
  editBoard: {
    body: { board_name: 'Rates', definition: { ...EMPTY_DEFINITION, sources: 'all' } },
    field: 'definition.sources',
  },
  duplicateBoard: { body: { board_name: 42 }, field: 'board_name' },
  enableBoard: { body: { enabled: 'yes' }, field: 'enabled' },
  previewBoard: {
    body: {
      definition: {
        ...EMPTY_DEFINITION,
        date_range: { durationOption: '5y', startDate: null, endDate: null },
      },
    },
    field: 'definition.date_range.durationOption',
  },
  aiSmarts: { body: { companies: 'Deccan', topics: [], attributes: [] }, field: 'companies' },
  search: { body: { q: 'revenue', num_docs: 101 }, field: 'num_docs' },
  searchSource: { body: { q: 'revenue', sort: 'loudest' }, field: 'sort' },
  searchTags: { body: { type: 'filter', sort: 'size' }, field: 'sort' },
  searchExchanges: {
    body: { type: 'filter', filter: { exchanges: { Country: 'Atlantis' } } },
    field: 'filter.exchanges.Country',
  },
  // The assistant (issue 8).
  askSessionPut: { body: { title: '   ' }, field: 'title' },
  askFeedback: { body: { feedback: 'MAYBE', message_id: 'm1' }, field: 'feedback' },
  // Uploads, extraction and summaries (issue 20).
  uploadInit: { body: { source: 'needldrive', files: [] }, field: 'files' },
  uploadComplete: { body: { source: 'needldrive', files: 'all' }, field: 'files' },
  uploadCompleteUpdate: {
    body: { source: 'needldrive', files: [], action: 'remove', feed_id: 'f1' },
    field: 'files',
  },
  tableExtraction: { body: { deeplink: 'd1', page_number: 0 }, field: 'page_number' },
  saveSummary: { body: { deeplink: 42 }, field: 'deeplink' },
  // Tags and bookmarks (issue 21).
  createTag: { body: { tag: '   ' }, field: 'tag' },
  deleteTag: { body: { tag_id: 7 }, field: 'tag_id' },
  setDocumentTags: { body: { tags: 'rates' }, field: 'tags' },
  renameTag: { body: { tag_id: 't1', tag: '   ' }, field: 'tag' },
  mergeTags: { body: { from: 't1', into: 't1' }, field: 'into' },
  // Settings, people and notebooks (issue 21).
  updateProfile: { body: { name: '   ' }, field: 'name' },
  changePassword: {
    body: { current_password: '', password: 'long-enough-pw' },
    field: 'current_password',
  },
  signOutEverywhere: { body: { everywhere: true }, field: 'everywhere' },
  createPerson: { body: { people_name: '' }, field: 'people_name' },
  editPerson: { body: { priority: 'URGENT' }, field: 'priority' },
  createNotebook: { body: { name: 42 }, field: 'name' },
  renameNotebook: { body: { name: 42 }, field: 'name' },
  createNote: { body: { name: 42 }, field: 'name' },
  snipNote: { body: { document: 42 }, field: 'document' },
};

const withBody = (Object.keys(endpoints) as EndpointName[]).filter((n) => 'body' in endpoints[n]);

describe('request validation', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness('sqlite');
    token = (await h.signInDemo()).id_token;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('has a bad example for every endpoint with a body', () => {
    expect(withBody.filter((n) => !INVALID_BODIES[n])).toEqual([]);
  });

  it.each(withBody)('%s rejects an invalid body with 400 naming the field', async (name) => {
    const e = endpoints[name];
    const { body, field } = INVALID_BODIES[name]!;
    const res = await h.call(e.method.toUpperCase(), endpointPath(name, 'needl'), {
      body,
      token: e.auth ? token : undefined,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('bad_request');
    expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    expect(res.body.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: field })]),
    );
  });

  it.each(withBody)('%s rejects unknown fields', async (name) => {
    const e = endpoints[name];
    const res = await h.call(e.method.toUpperCase(), endpointPath(name, 'needl'), {
      body: { surprise: true },
      token: e.auth ? token : undefined,
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(
      expect.arrayContaining([{ path: 'surprise', message: 'unknown field not allowed' }]),
    );
  });

  it('gives the e-mail rule its own words', async () => {
    const res = await h.call('POST', '/auth/signup', {
      body: { name: 'Ada', email: 'ada-at-example', password: 'long-enough' },
    });
    expect(res.body.message).toBe('email: email must be a valid e-mail address');
  });

  it('says a missing field is required', async () => {
    const res = await h.call('POST', '/auth/signin', { body: { password: 'whatever' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('email: email is required');
  });

  it('rejects malformed JSON and non-JSON bodies', async () => {
    const malformed = await h.call('POST', '/auth/signin', { rawBody: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      error: 'bad_request',
      message: 'request body is not valid JSON',
    });
    const text = await h.call('POST', '/auth/signin', {
      rawBody: 'email=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.message).toBe(
      'request body must be JSON: send content-type: application/json',
    );
  });

  it('refuses a body over 1 MiB', async () => {
    const res = await h.call('POST', '/debug-logs', {
      token,
      key: 'big-body',
      body: { logData: 'x'.repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('request body is too large (limit 1 MiB)');
  });

  it('validates query parameters', async () => {
    const page = await h.call('GET', '/notifications?page=0', { token });
    expect(page.status).toBe(400);
    expect(page.body.message).toMatch(/^page: /);
    const limit = await h.call('GET', '/sync/changes?after=0&limit=9999', { token });
    expect(limit.status).toBe(400);
    expect(limit.body.message).toMatch(/^limit: /);
  });

  it('checks the caller before the body', async () => {
    const res = await h.call('PUT', '/user/preferences', { body: { nav_state: 'sideways' } });
    expect(res.status).toBe(401);
  });

  it('answers unknown /api paths with a 404 ErrorBody', async () => {
    const res = await h.call('GET', '/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: 'not_found',
      message: 'no such endpoint: GET /api/no/such/thing',
    });
  });

  it('turns a failure inside a handler into a bare 500 and logs the detail', async () => {
    await h.db.deleteFrom('onboarding_flags').execute();
    await h.db.schema.dropTable('onboarding_flags').execute();
    const res = await h.call('GET', '/onboarding/flags', { token });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal', message: 'internal error' });
    expect(h.logs.some((l) => l.includes('internal error on GET /api/onboarding/flags'))).toBe(
      true,
    );
  });
});
