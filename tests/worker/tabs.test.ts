import * as Comlink from 'comlink';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AUTH_POLL_MS } from '../../contract/constants';
import type { WorkspaceApi } from '../../contract/worker-api';
import type { HeadlessWorkspace } from '../../worker/headless';
import {
  createBroadcastHub,
  createManualClock,
  createMemoryLocks,
  type ManualClock,
} from '../../worker/testing';
import { newUser, setupWorkspaceSuite } from './support';

const suite = setupWorkspaceSuite();
const { workspace } = suite;

/** Auth polls the server counted over `intervals` poll intervals of the manual clock. */
async function pollsOver(clock: ManualClock, workspaces: HeadlessWorkspace[], intervals: number) {
  for (const ws of workspaces) await ws.workspace.idle();
  const before = suite.env.server.metrics.authPolls;
  for (let i = 0; i < intervals; i += 1) {
    await clock.advance(AUTH_POLL_MS);
    for (const ws of workspaces) await ws.workspace.idle();
  }
  return suite.env.server.metrics.authPolls - before;
}

describe('auth poll (000 §4: every 240 000 ms while a tab is visible)', () => {
  it.each([1, 2, 4])('polls once per interval with %i visible tab(s)', async (count) => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const tabs = [];
    for (let i = 0; i < count; i += 1) tabs.push(await ws.tab(`tab-${i}`));
    await tabs[0].api.call('auth.signUp', newUser());
    expect(await pollsOver(clock, [ws], 3)).toBe(3);
  });

  it('does not poll while every tab is hidden, and resumes when one shows', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const a = await ws.tab('tab-a', { visible: false });
    const b = await ws.tab('tab-b', { visible: false });
    await a.api.call('auth.signUp', newUser());
    expect(await pollsOver(clock, [ws], 3)).toBe(0);

    await b.api.call('tab.visibility', { visible: true });
    expect(await pollsOver(clock, [ws], 2)).toBe(2);
    await b.api.call('tab.visibility', { visible: false });
    expect(await pollsOver(clock, [ws], 2)).toBe(0);
  });

  it('does not poll while signed out', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    await ws.tab();
    expect(await pollsOver(clock, [ws], 2)).toBe(0);
  });

  it('checks the session on every route change', async () => {
    const ws = workspace();
    const a = await ws.tab();
    await a.api.call('auth.signUp', newUser());
    await ws.workspace.idle();
    const before = suite.env.server.metrics.authPolls;
    expect(await a.api.call('tab.route', { path: '/search' })).toMatchObject({
      status: 'signed-in',
    });
    await a.api.call('tab.route', { path: '/notifications' });
    expect(suite.env.server.metrics.authPolls - before).toBe(2);
  });

  it('polls once per browser in the dedicated-worker fallback (one worker per tab)', async () => {
    const clock = createManualClock();
    const profile = {
      clock,
      indexedDB: new IDBFactory(),
      locks: createMemoryLocks(),
      broadcastChannel: createBroadcastHub().channel,
    };
    const workers = [workspace(profile), workspace(profile), workspace(profile)];
    const tabs = [];
    for (const [i, w] of workers.entries()) tabs.push(await w.tab(`tab-${i}`));
    await tabs[0].api.call('auth.signUp', newUser());
    for (const tab of tabs.slice(1)) await tab.waitFor((e) => e.type === 'session');
    expect(await pollsOver(clock, workers, 3)).toBe(3);

    // The leader's tab hides: another worker takes over, still one poll per interval.
    await tabs[0].api.call('tab.visibility', { visible: false });
    expect(await pollsOver(clock, workers, 2)).toBe(2);
  });
});

describe('tab liveness (a Web Lock per tab)', () => {
  it('forgets a dead tab: no more events to it, and its visibility no longer counts', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const live = await ws.tab('live', { visible: false });
    const dead = await ws.tab('dead', { visible: true });
    await live.api.call('auth.signUp', newUser());
    await dead.waitFor((e) => e.type === 'session');
    expect(await pollsOver(clock, [ws], 1)).toBe(1);

    // The tab's process dies: its lock goes, its port is left dangling.
    dead.releaseLock();
    await expect.poll(() => ws.workspace.tabIds()).toEqual(['live']);
    expect(await pollsOver(clock, [ws], 2)).toBe(0);

    const seenByDead = dead.events.length;
    await live.api.call('auth.signOut', {});
    await live.waitFor((e) => e.type === 'logout');
    await ws.workspace.idle();
    expect(dead.events).toHaveLength(seenByDead);
  });

  it('forgets a tab that says bye', async () => {
    const ws = workspace();
    const a = await ws.tab('a');
    await ws.tab('b');
    await a.api.call('tab.bye', {});
    expect(ws.workspace.tabIds()).toEqual(['b']);
  });

  it('keeps serving a tab whose event handling throws (a UI bug is not a dead tab)', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const quiet = await ws.tab('quiet', { visible: false });
    const buggy = await ws.tab('buggy', {
      visible: true,
      onEvent: () => {
        throw new Error('the page failed to render the event');
      },
    });
    await quiet.api.call('auth.signUp', newUser());
    await buggy.waitFor((e) => e.type === 'session');
    await ws.workspace.idle();
    expect(ws.workspace.tabIds()).toEqual(['quiet', 'buggy']);
    // Its visibility still counts: the auth poll runs for it.
    expect(await pollsOver(clock, [ws], 1)).toBe(1);

    const since = buggy.events.length;
    await quiet.api.call('auth.signOut', {});
    expect(await buggy.waitFor((e) => e.type === 'logout', { since })).toMatchObject({
      reason: 'signed-out',
      origin_tab: 'quiet',
    });
  });
});

/** Resolves when the other end of `port` is closed. */
const closedOn = (port: MessagePort) =>
  new Promise<void>((resolve) => port.addEventListener('close', () => resolve()));

describe('ports (each tab connection is one port)', () => {
  it("closes a dropped tab's port", async () => {
    const ws = workspace();
    await ws.tab('live');
    const dead = await ws.tab('dead');
    const closed = closedOn(dead.port);
    dead.releaseLock();
    await closed;
    expect(ws.workspace.tabIds()).toEqual(['live']);
  });

  it('closes a connection that never says hello within 60 s', async () => {
    const clock = createManualClock();
    const ws = workspace({ clock });
    const { port1, port2 } = new MessageChannel();
    let closed = false;
    void closedOn(port2).then(() => {
      closed = true;
    });
    ws.workspace.connect(port1);
    const api = Comlink.wrap<WorkspaceApi>(port2);
    await clock.advance(59_999);
    // Still served a millisecond before the limit (a call is not a hello).
    expect(await api.call('auth.session', {})).toEqual({ status: 'signed-out' });
    await clock.advance(1);
    await expect.poll(() => closed).toBe(true);
    expect(clock.pendingTimers()).toBe(0);
  });
});
