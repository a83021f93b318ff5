import { describe, expect, it } from 'vitest';
import type { Chat } from '../../contract/assistant';
import type { OpName, WorkerEvent } from '../../contract/worker-api';
import { allBlocks } from '../../src/lib/markdown-blocks';
import { applyPatch, chatView, type BotView, type ChatView } from '../../src/state/assistant-chat';
import { createAssistantState } from '../../src/state/assistant-state';
import type { WorkspaceClient } from '../../src/workspace-client';
import { answer, bot, chat, patch } from './assistant-chat-fixtures';

const streaming = () =>
  chatView(chat([bot({ phase: 'streaming', streamingAnswer: 'Held', data: null })]), null);
const botOf = (view: ChatView) => view.messages.find((m) => m.type === 'bot') as BotView;
const update = (event: WorkerEvent) =>
  (event as Extract<WorkerEvent, { type: 'ask' }>).update as Extract<
    Extract<WorkerEvent, { type: 'ask' }>['update'],
    { kind: 'patch' }
  >;

describe('patches (contract ChatUpdate)', () => {
  it('append when their length follows on from the text the tab has', () => {
    const result = applyPatch(streaming(), update(patch(' steady.', 12)));
    expect(result.kind).toBe('applied');
    if (result.kind !== 'applied') return;
    expect(allBlocks(botOf(result.view).text)).toEqual(['Held steady.']);
  });

  it('are stale when the tab already has their text, and a gap when text is missing', () => {
    expect(applyPatch(streaming(), update(patch('ld', 4))).kind).toBe('stale');
    expect(applyPatch(streaming(), update(patch(' rates.', 20))).kind).toBe('gap');
  });

  it('never take a finished answer back to streaming', () => {
    const done = chatView(chat([bot({ streamingAnswer: 'Held', data: null })]), null);
    const result = applyPatch(done, update(patch('', 4)));
    expect(result.kind === 'applied' && botOf(result.view).phase).toBe('done');
  });

  it("show DONE's answer, which may differ from what streamed", () => {
    const data = answer({ generated_answer: { answer: 'Held.', sentences: [] } });
    const result = applyPatch(streaming(), update(patch(' [9].', 9, { phase: 'done', data })));
    expect(result.kind === 'applied' && allBlocks(botOf(result.view).text)).toEqual(['Held.']);
  });
});

function fakeClient(watch: () => Promise<Chat>) {
  const listeners: Array<(event: WorkerEvent) => void> = [];
  const calls: Array<{ op: OpName; input: unknown }> = [];
  const client = {
    tabId: 't1',
    call: (op: OpName, input: unknown) => {
      calls.push({ op, input });
      if (op === 'ask.watch') return watch();
      if (op === 'ask.setState' || op === 'ask.state') return Promise.reject(new Error('offline'));
      return Promise.resolve({});
    },
    onEvent: (listener: (event: WorkerEvent) => void) => {
      listeners.push(listener);
      return () => {};
    },
  } as unknown as WorkspaceClient;
  const emit = (event: WorkerEvent) => listeners.forEach((l) => l(event));
  return { client, calls, emit };
}

const deferred = <T,>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('the assistant state', () => {
  it('keeps the patches that come while the snapshot is on its way, and applies them after it', async () => {
    const snapshot = deferred<Chat>();
    const fake = fakeClient(() => snapshot.promise);
    const state = createAssistantState({ client: fake.client, timezone: () => 'UTC' });
    state.attach();
    state.open('s1');
    // Sent after the worker took the snapshot (which holds "Held"), before the tab has it.
    fake.emit(patch(' steady', 11));
    fake.emit(patch('.', 12));
    snapshot.resolve(chat([bot({ phase: 'streaming', streamingAnswer: 'Held', data: null })]));
    await snapshot.promise;
    await Promise.resolve();
    const view = state.$chat.value;
    expect(view && allBlocks(botOf(view).text)).toEqual(['Held steady.']);
    expect(fake.calls.filter((c) => c.op === 'ask.watch')).toHaveLength(1);
  });

  it('a reset during the snapshot wins over the snapshot', async () => {
    const snapshot = deferred<Chat>();
    const fake = fakeClient(() => snapshot.promise);
    const state = createAssistantState({ client: fake.client, timezone: () => 'UTC' });
    state.attach();
    state.open('s1');
    fake.emit({
      type: 'ask',
      sessionId: 's1',
      update: { kind: 'reset', chat: chat([bot({ streamingAnswer: 'Newer.', data: null })]) },
    });
    snapshot.resolve(chat([bot({ phase: 'loading', streamingAnswer: '', data: null })]));
    await snapshot.promise;
    await Promise.resolve();
    const view = state.$chat.value;
    expect(view && allBlocks(botOf(view).text)).toEqual(['Newer.']);
  });

  it("ignores another session's updates, and stops watching when no screen shows the chat", async () => {
    const fake = fakeClient(() => Promise.resolve(chat()));
    const state = createAssistantState({ client: fake.client, timezone: () => 'UTC' });
    const detach = state.attach();
    state.open('s1');
    await Promise.resolve();
    await Promise.resolve();
    const before = state.$chat.value;
    fake.emit({ type: 'ask', sessionId: 's2', update: update(patch('x', 1)) });
    expect(state.$chat.value).toBe(before);
    detach();
    expect(fake.calls.filter((c) => c.op === 'ask.unwatch')).toEqual([
      { op: 'ask.unwatch', input: { sessionId: 's1' } },
    ]);
  });
});
