import { describe, expect, it } from 'vitest';
import type { ChatUpdate } from '../../contract/assistant';
import type { WorkerEvent } from '../../contract/worker-api';
import { resolveRequest } from '../../worker/api-request';
import {
  createLiveUpdates,
  PATCH_MS,
  newLive,
} from '../../worker/domains/assistant/assistant-live';
import { createTabRegistry, type Connection } from '../../worker/tabs';
import { createManualClock, createMemoryLocks } from '../../worker/testing';
import { ALL, askingUser, botOf, patches, patchIn, scriptedStream } from './assistant-support';
import { setupWorkspaceSuite } from './support';

/**
 * Coalescing: a chat's watchers get at most one 'ask' patch per PATCH_MS (50 ms on the worker's
 * clock) however fast the answer streams, and the answer's end at once; and the repeated
 * document_id of the question's query.
 */
const suite = setupWorkspaceSuite({ ingest: false });

const chunk = (answer_chunk: string) => ({ status: 'GENERATED_ANSWER', data: { answer_chunk } });
const STEPS = [{ id: 'search', text: 'Searching your data for “quokkas”', loading: false }];

describe('patches per frame', () => {
  it('streams many events into one patch per frame, and the end at once', async () => {
    const clock = createManualClock(Date.now());
    const { tab, net } = await askingUser(suite, clock);
    const stream = scriptedStream();
    net.state.rule = (url) =>
      new URL(url).pathname.endsWith('/ask-needl') ? stream.response() : null;
    const asked = await tab.api.call('ask.send', { prompt: 'What do quokkas eat?', scope: ALL });
    await tab.api.call('ask.watch', { sessionId: asked.sessionId });

    // Four events within one frame: one patch, when the frame ends.
    await stream.event({ status: 'INTERMEDIATE_STEP', data: { steps: STEPS } });
    for (const text of ['Quokkas ', 'eat ', 'leaves.']) await stream.event(chunk(text));
    await clock.advance(PATCH_MS);
    await tab.waitFor(patchIn(asked.messageId, 'streaming'));
    expect(patches(tab)).toEqual([
      {
        kind: 'patch',
        messageId: asked.messageId,
        append: 'Quokkas eat leaves.',
        length: 19,
        phase: 'streaming',
        steps: STEPS,
      },
    ]);

    // The next frame carries what came during it.
    await stream.event(chunk(' And grasses.'));
    await stream.event({ status: 'GENERATING_CITATIONS', data: {} });
    await clock.advance(PATCH_MS);
    await tab.waitFor(patchIn(asked.messageId, 'citing'));

    // DONE goes out at once, without waiting for the frame.
    const done = {
      answer_type: 'ANSWER',
      retrieved_results: [],
      generated_answer: { answer: 'Quokkas eat leaves. And grasses.', sentences: [] },
      followup_questions: [],
      message_id: 'm-1',
      answer_quality: 'LOW',
      session_id: asked.sessionId,
    };
    await stream.event({ status: 'DONE', data: done });
    await tab.waitFor(patchIn(asked.messageId, 'done'));
    expect(patches(tab).slice(1, 3)).toEqual([
      {
        kind: 'patch',
        messageId: asked.messageId,
        append: ' And grasses.',
        length: 32,
        phase: 'citing',
      },
      {
        kind: 'patch',
        messageId: asked.messageId,
        append: '',
        length: 32,
        phase: 'done',
        data: done,
      },
    ]);
    const chat = await tab.api.call('ask.watch', { sessionId: asked.sessionId });
    expect(botOf(chat, asked.messageId)).toMatchObject({
      phase: 'done',
      streamingAnswer: 'Quokkas eat leaves. And grasses.',
      intermediateSteps: STEPS,
      data: done,
    });
  });
});

describe('createLiveUpdates', () => {
  const setup = () => {
    const clock = createManualClock();
    const sent: Array<[number, ChatUpdate]> = [];
    const gone = new Set<number>();
    const conn = (key: number) => ({ key }) as Connection;
    const deliver = (c: Connection, event: WorkerEvent) => {
      if (gone.has(c.key)) return false;
      if (event.type === 'ask') sent.push([c.key, event.update]);
      return true;
    };
    const updates = createLiveUpdates({ clock, deliver });
    const live = newLive({
      sessionId: 's-1',
      title: '',
      metadata: {
        type: 'all',
        board_id: null,
        channel_id: null,
        document_id: [],
        source: null,
        report_id: null,
      },
      messages: [
        {
          type: 'bot',
          id: 'b-1',
          prompt: 'Q',
          mode: 'answer',
          phase: 'loading',
          streamingAnswer: '',
          intermediateSteps: [],
          data: null,
          generatingStopped: false,
          error: null,
          feedback: null,
        },
      ],
      streaming: true,
    });
    live.watchers.add(conn(1)).add(conn(2));
    return { clock, sent, gone, updates, live };
  };

  it('sends at most one patch per frame, to every watcher, and the end at once', async () => {
    const { clock, sent, updates, live } = setup();
    updates.queue(live, { messageId: 'b-1', append: 'a', phase: 'streaming' });
    await clock.advance(5);
    updates.queue(live, { messageId: 'b-1', append: 'b' });
    await clock.advance(PATCH_MS - 6);
    expect(sent).toEqual([]);
    await clock.advance(1);
    const first = { kind: 'patch', messageId: 'b-1', append: 'ab', length: 2, phase: 'streaming' };
    expect(sent).toEqual([
      [1, first],
      [2, first],
    ]);
    updates.queue(live, { messageId: 'b-1', append: 'c' });
    updates.queue(live, { messageId: 'b-1', phase: 'stopped', generatingStopped: true }, true);
    const last = {
      kind: 'patch',
      messageId: 'b-1',
      append: 'c',
      length: 3,
      phase: 'stopped',
      generatingStopped: true,
    };
    expect(sent.slice(2)).toEqual([
      [1, last],
      [2, last],
    ]);
    expect(clock.pendingTimers()).toBe(0);
    expect(live.chat.streaming).toBe(false);
  });

  it('forgets a watcher whose connection is gone', async () => {
    const { clock, sent, gone, updates, live } = setup();
    gone.add(2);
    updates.queue(live, { messageId: 'b-1', append: 'x', phase: 'streaming' });
    await clock.advance(PATCH_MS);
    expect(sent.map(([key]) => key)).toEqual([1]);
    expect([...live.watchers].map((c) => c.key)).toEqual([1]);
  });
});

describe("the tab registry's send", () => {
  it('delivers to one connection, and says false once it is dropped', () => {
    const tabs = createTabRegistry({
      locks: createMemoryLocks(),
      clock: createManualClock(),
      helloTimeoutMs: 60_000,
      warn: () => {},
      onChange: () => {},
    });
    const heard: Array<[string, WorkerEvent]> = [];
    const a = tabs.open();
    const b = tabs.open();
    tabs.subscribe(a, (e) => void heard.push(['a', e]));
    tabs.subscribe(b, (e) => void heard.push(['b', e]));
    const event: WorkerEvent = { type: 'online', online: true };
    expect(tabs.send(a, event)).toBe(true);
    tabs.drop(a);
    expect(tabs.send(a, event)).toBe(false);
    expect(heard).toEqual([['a', event]]);
  });
});

describe('the question query', () => {
  it('repeats a parameter given as an array, in order, leaving out empty values', () => {
    const { url } = resolveRequest(
      {
        method: 'get',
        path: '/ml/ask-{product}',
        auth: true,
        query: { prompt: 'a b', document_id: ['d1', 'd2'], board_id: null, source: undefined },
      },
      'https://app.example/api',
      'needl',
    );
    expect(url).toBe(
      'https://app.example/api/ml/ask-needl?prompt=a+b&document_id=d1&document_id=d2',
    );
  });
});
