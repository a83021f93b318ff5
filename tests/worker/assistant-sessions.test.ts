import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import { createGate, errorResponse, newUser, setupWorkspaceSuite } from './support';
import {
  askAndWait,
  askingUser,
  insertQuokkaDocs,
  otherDevice,
  patches,
} from './assistant-support';

/**
 * History: sessions and their exchanges mirrored, read with the network gone, revalidated,
 * followed through the change feed; renames and deletes optimistic with rollback; feedback.
 */
const suite = setupWorkspaceSuite({ ingest: false });
beforeAll(() => insertQuokkaDocs(suite.env));

const SENTENCE = 'Quokkas eat leaves, grasses and succulent plants on Rottnest Island.';
const sessionsChanged = (id: string) => (e: WorkerEvent) =>
  e.type === 'changed' && e.store === 'assistant_sessions' && (e.keys?.includes(id) ?? true);
const rows = (answer: { sessions: Array<{ id: string; title: string }> }) =>
  answer.sessions.map((s) => [s.id, s.title]);

describe('ask.sessions', () => {
  it('lists the mirrored sessions, with the network down too, and searches them', async () => {
    const { ws, tab, net } = await askingUser(suite);
    const asked = await askAndWait(ws, tab, 'What do quokkas eat?');
    const first = await tab.api.call('ask.sessions', {});
    expect(first.fresh).toBe(true);
    expect(rows(first)).toEqual([[asked.sessionId, 'What do quokkas eat?']]);

    const q = await tab.api.call('ask.sessions', { q: 'succulent' });
    expect(q).toMatchObject({ fresh: true, sessions: [{ id: asked.sessionId }] });

    // No network: the list, a search and the chat itself come from the mirror.
    await tab.api.call('ask.unwatch', { sessionId: asked.sessionId });
    net.state.offline = true;
    const offline = await tab.api.call('ask.sessions', {});
    expect({ fresh: offline.fresh, rows: rows(offline) }).toEqual({
      fresh: false,
      rows: [[asked.sessionId, 'What do quokkas eat?']],
    });
    expect(await tab.api.call('ask.sessions', { q: 'SUCCULENT plants' })).toEqual({
      fresh: false,
      sessions: [{ ...first.sessions[0], matched_sentence: SENTENCE }],
    });
    expect(await tab.api.call('ask.sessions', { q: 'wombats' })).toEqual({
      fresh: false,
      sessions: [],
    });
    const chat = await tab.api.call('ask.watch', { sessionId: asked.sessionId });
    expect(
      chat.messages.map((m) => (m.type === 'bot' ? [m.phase, m.streamingAnswer] : m.prompt)),
    ).toEqual(['What do quokkas eat?', ['done', `${SENTENCE} [1]`]]);
    expect(chat.title).toBe('What do quokkas eat?');
  });

  it('opens a session asked on another device with its exchanges', async () => {
    const { ws, tab, user } = await askingUser(suite);
    const asked = await askAndWait(ws, tab, 'What do quokkas eat?');
    const other = await suite.workspace().tab('other-device');
    await other.api.call('auth.signIn', { email: user.email, password: user.password });
    expect(rows(await other.api.call('ask.sessions', {}))).toEqual([
      [asked.sessionId, 'What do quokkas eat?'],
    ]);
    const chat = await other.api.call('ask.watch', { sessionId: asked.sessionId });
    expect(
      chat.messages.map((m) => (m.type === 'bot' ? [m.phase, m.data?.message_id] : m.prompt)),
    ).toEqual(['What do quokkas eat?', ['done', asked.bot.data?.message_id]]);
  });

  it("forgets a user's chats when the session ends: the next user cannot open them", async () => {
    const { ws, tab } = await askingUser(suite);
    const asked = await askAndWait(ws, tab, 'What do quokkas eat?');
    await tab.api.call('auth.signOut', {});
    await tab.api.call('auth.signUp', newUser());
    await expect(tab.api.call('ask.watch', { sessionId: asked.sessionId })).rejects.toThrow(
      `No assistant session ${asked.sessionId}`,
    );
    expect(await tab.api.call('ask.sessions', {})).toEqual({ sessions: [], fresh: true });
  });

  it('follows renames and deletes made elsewhere, through revalidation and the change feed', async () => {
    const { ws, tab, user } = await askingUser(suite);
    const a = await askAndWait(ws, tab, 'What do quokkas eat?');
    const b = await askAndWait(ws, tab, 'How many quokkas live on Rottnest Island?');
    await tab.api.call('ask.sessions', {});
    const other = await otherDevice(suite.env, user);

    // Renamed on another device: the mirror's list answers, the server's follows with an event.
    expect((await other.rename(a.sessionId, 'Quokka food')).status).toBe(200);
    let since = tab.events.length;
    const stale = await tab.api.call('ask.sessions', {});
    expect(rows(stale)).toEqual([
      [b.sessionId, 'How many quokkas live on Rottnest Island?'],
      [a.sessionId, 'What do quokkas eat?'],
    ]);
    await tab.waitFor(sessionsChanged(a.sessionId), { since });
    // The tab showing that chat gets its new title.
    const titled = await tab.waitFor(
      (e) => e.type === 'ask' && e.update.kind === 'patch' && e.update.title === 'Quokka food',
      { since },
    );
    expect(titled).toMatchObject({ sessionId: a.sessionId });
    expect(rows(await tab.api.call('ask.sessions', {}))).toEqual([
      [b.sessionId, 'How many quokkas live on Rottnest Island?'],
      [a.sessionId, 'Quokka food'],
    ]);

    // Deleted elsewhere: the change feed takes it out of the mirror.
    expect((await other.delete(b.sessionId)).status).toBe(200);
    since = tab.events.length;
    await tab.api.call('sync.pull', {});
    await tab.waitFor(sessionsChanged(b.sessionId), { since });
    expect(rows(await tab.api.call('ask.sessions', {}))).toEqual([[a.sessionId, 'Quokka food']]);
  });
});

describe('ask.rename and ask.delete', () => {
  it('renames at once, then as the server says; a refusal puts the title back', async () => {
    const { ws, tab, net, user } = await askingUser(suite);
    const asked = await askAndWait(ws, tab, 'What do quokkas eat?');
    await tab.api.call('ask.sessions', {});

    const gate = createGate();
    net.state.rule = (_url, init) => (init.method === 'PUT' ? { hold: gate.opened } : null);
    const before = tab.events.length;
    const renamed = tab.api.call('ask.rename', { sessionId: asked.sessionId, title: 'Diet' });
    await tab.waitFor(sessionsChanged(asked.sessionId), { since: before });
    expect(rows(await tab.api.call('ask.sessions', {}))).toEqual([[asked.sessionId, 'Diet']]);
    gate.open();
    expect(await renamed).toEqual({ ok: true });
    const other = await otherDevice(suite.env, user);
    expect(await other.session(asked.sessionId)).toMatchObject({ body: { title: 'Diet' } });

    net.state.rule = (_url, init) =>
      init.method === 'PUT' ? errorResponse(404, 'not_found', 'No such session') : null;
    const since = tab.events.length;
    await expect(
      tab.api.call('ask.rename', { sessionId: asked.sessionId, title: 'Lunch' }),
    ).rejects.toThrow('No such session');
    expect(rows(await tab.api.call('ask.sessions', {}))).toEqual([[asked.sessionId, 'Diet']]);
    expect(tab.events.slice(since)).toContainEqual({
      type: 'toast',
      kind: 'error',
      message: 'No such session',
    });
    // The open chat showed each title in turn.
    expect(patches(tab).flatMap((p) => (p.title ? [p.title] : []))).toEqual([
      'What do quokkas eat?',
      'Diet',
      'Lunch',
      'Diet',
    ]);
  });

  it('deletes at once; a refusal brings the session and its messages back', async () => {
    const { ws, tab, net, user } = await askingUser(suite);
    const asked = await askAndWait(ws, tab, 'What do quokkas eat?');
    await tab.api.call('ask.unwatch', { sessionId: asked.sessionId });
    await tab.api.call('ask.sessions', {});

    net.state.rule = (_url, init) =>
      init.method === 'DELETE' ? errorResponse(409, 'conflict', 'The session is busy') : null;
    await expect(tab.api.call('ask.delete', { sessionId: asked.sessionId })).rejects.toThrow(
      'The session is busy',
    );
    expect(rows(await tab.api.call('ask.sessions', {}))).toEqual([
      [asked.sessionId, 'What do quokkas eat?'],
    ]);
    net.state.rule = null;
    net.state.offline = true;
    const kept = await tab.api.call('ask.watch', { sessionId: asked.sessionId });
    expect(kept.messages).toHaveLength(2);
    await tab.api.call('ask.unwatch', { sessionId: asked.sessionId });

    net.state.offline = false;
    expect(await tab.api.call('ask.delete', { sessionId: asked.sessionId })).toEqual({ ok: true });
    expect(await tab.api.call('ask.sessions', {})).toMatchObject({ sessions: [] });
    const other = await otherDevice(suite.env, user);
    expect((await other.session(asked.sessionId)).status).toBe(404);
  });
});

describe('feedback, suggestions and the chat state', () => {
  it('sends feedback on an answer; the chat and the server keep it', async () => {
    const { ws, tab, user } = await askingUser(suite);
    const asked = await askAndWait(ws, tab, 'What do quokkas eat?');
    const messageId = asked.bot.data!.message_id;
    const since = tab.events.length;
    expect(
      await tab.api.call('ask.feedback', { feedback: 'INCORRECT', message_id: messageId }),
    ).toEqual({ ok: true });
    const reset = await tab.waitFor((e) => e.type === 'ask' && e.update.kind === 'reset', {
      since,
    });
    expect(reset).toMatchObject({
      update: { chat: { messages: [{ type: 'user' }, { type: 'bot', feedback: 'INCORRECT' }] } },
    });
    const other = await otherDevice(suite.env, user);
    expect(await other.session(asked.sessionId)).toMatchObject({
      body: { state: { messages: [{ id: messageId, feedback: 'INCORRECT' }] } },
    });
  });

  it('asks the server for suggested questions; a failure reaches the tab', async () => {
    const { tab, net } = await askingUser(suite);
    const answer = await tab.api.call('ask.suggestions', {});
    expect(Object.keys(answer)).toEqual(['all', 'feed', 'document']);
    expect(answer.all.length).toBeGreaterThan(0);
    net.state.rule = (url) =>
      new URL(url).pathname.endsWith('/messaging')
        ? errorResponse(404, 'not_found', 'No such feed')
        : null;
    await expect(tab.api.call('ask.suggestions', { board_id: 'nope' })).rejects.toThrow(
      'No such feed',
    );
  });

  it('keeps the chat state per user, starting from the defaults', async () => {
    const { tab } = await askingUser(suite);
    const defaults = {
      searchWithin: 'all',
      currentFeedOrDocumentId: 'home',
      webSearch: false,
      lastActiveSessionId: null,
      report: { enabled: false, info: null, sources: [] },
    };
    expect(await tab.api.call('ask.state', {})).toEqual(defaults);
    const set = { webSearch: true, lastActiveSessionId: 's-1' };
    expect(await tab.api.call('ask.setState', set)).toEqual({ ...defaults, ...set });
    expect(
      await tab.api.call('ask.setState', { searchWithin: 'feed', currentFeedOrDocumentId: 'f-1' }),
    ).toEqual({ ...defaults, ...set, searchWithin: 'feed', currentFeedOrDocumentId: 'f-1' });

    await tab.api.call('auth.signOut', {});
    await tab.api.call('auth.signUp', newUser());
    expect(await tab.api.call('ask.state', {})).toEqual(defaults);
  });
});
