import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../contract/worker-api';
import { createWorkspaceClient, windowNetwork } from '../../src/workspace-client';
import { SIGNED_IN, createFakeWorkspace } from './shell-fake-workspace';

describe('workspace client (the tab side of the worker)', () => {
  it('holds its tab lock before saying hello, then subscribes, and fans events out', async () => {
    const order: string[] = [];
    const fake = createFakeWorkspace({
      'tab.hello': (input) => {
        order.push(`hello ${input.tab_id} ${input.variant} ${input.path} ${input.visible}`);
        return SIGNED_IN;
      },
    });
    const heldLocks: string[] = [];
    let visibilityListener: ((visible: boolean) => void) | null = null;
    const client = createWorkspaceClient({
      api: fake.api,
      tabId: 'tab-7',
      locks: {
        request(name, callback) {
          heldLocks.push(name);
          order.push(`lock ${name}`);
          return callback();
        },
      },
      visibility: {
        isVisible: () => false,
        onChange(listener) {
          visibilityListener = listener;
          return () => {};
        },
      },
    });
    const seen: WorkerEvent[] = [];
    client.onEvent((event) => seen.push(event));

    expect(await client.start({ variant: 'pulse', path: '/pulse/auth/signin' })).toEqual(SIGNED_IN);
    expect(order).toEqual(['lock tab:tab-7', 'hello tab-7 pulse /pulse/auth/signin false']);
    expect(heldLocks).toEqual(['tab:tab-7']);

    await fake.emit({ type: 'online', online: false });
    expect(seen).toEqual([{ type: 'online', online: false }]);

    visibilityListener!(true);
    await client.route('/feeds/home');
    expect(fake.calls.map((c) => [c.op, c.input])).toEqual([
      [
        'tab.hello',
        { tab_id: 'tab-7', variant: 'pulse', visible: false, path: '/pulse/auth/signin' },
      ],
      ['tab.visibility', { visible: true }],
      ['tab.route', { path: '/feeds/home' }],
    ]);
  });

  it('starts once however often it is asked', async () => {
    const fake = createFakeWorkspace();
    const client = createWorkspaceClient({ api: fake.api, tabId: 't' });
    await Promise.all([
      client.start({ variant: 'main', path: '/' }),
      client.start({ variant: 'main', path: '/' }),
    ]);
    expect(fake.calls.filter((c) => c.op === 'tab.hello')).toHaveLength(1);
  });

  it('tells the worker when the window goes offline and comes back online, until it closes', async () => {
    const fake = createFakeWorkspace({ 'tab.online': () => undefined });
    const client = createWorkspaceClient({
      api: fake.api,
      tabId: 't',
      network: windowNetwork(window),
    });
    // Before start the worker does not know the tab: nothing to tell it yet.
    window.dispatchEvent(new Event('offline'));
    await client.start({ variant: 'main', path: '/feeds/home' });

    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    const online = () => fake.calls.filter((c) => c.op === 'tab.online').map((c) => c.input);
    expect(online()).toEqual([{ online: false }, { online: true }]);

    client.close();
    window.dispatchEvent(new Event('online'));
    expect(online()).toEqual([{ online: false }, { online: true }]);
  });
});
