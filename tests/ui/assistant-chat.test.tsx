import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  answer,
  bot,
  chat,
  patch,
  preloadAssistant,
  renderAssistant,
  reset,
  searchOf,
} from './assistant-chat-fixtures';
import { setViewportWidth } from './shell-fake-workspace';

beforeAll(preloadAssistant, 60_000);
beforeEach(() => setViewportWidth(1600));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

const input = () => screen.getByLabelText('Your question') as HTMLTextAreaElement;
const ops = (calls: Array<{ op: string; input: unknown }>, op: string) =>
  calls.filter((c) => c.op === op).map((c) => c.input);

async function ask(question: string) {
  fireEvent.change(await screen.findByLabelText('Your question'), {
    target: { value: question },
  });
  fireEvent.keyDown(input(), { key: 'Enter' });
}

describe('a new chat on the full page', () => {
  it('shows the empty chat: placeholder, suggestions and the disclaimer', async () => {
    await renderAssistant({ path: '/ask-needl/full' });
    expect(await screen.findByPlaceholderText('Ask me anything...')).toBeTruthy();
    expect(
      screen.getByText('AskNeedl can make mistakes. Double-check important info.'),
    ).toBeTruthy();
    const suggestions = await screen.findByRole('region', { name: 'Suggested questions' });
    expect(
      within(suggestions).getByRole('button', { name: /What changed this week\?/ }),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('does not send an empty question, on Enter or otherwise', async () => {
    const { calls } = await renderAssistant({ path: '/ask-needl/full' });
    await ask('   ');
    fireEvent.submit(input().closest('form')!);
    await screen.findByPlaceholderText('Ask me anything...');
    expect(ops(calls, 'ask.send')).toEqual([]);
  });

  it('asks, writes the new session to the address, waits, streams and ends with the answer', async () => {
    const view = await renderAssistant({ path: '/ask-needl/full' });
    await ask('What did central banks do?');

    await waitFor(() => expect(searchOf(view.history).sessionId).toBe('s1'));
    expect(ops(view.calls, 'ask.send')).toEqual([
      {
        prompt: 'What did central banks do?',
        scope: { searchWithin: 'all', currentFeedOrDocumentId: 'home' },
        mode: 'answer',
        pro: false,
        attachments: [],
        timezone: expect.any(String),
      },
    ]);
    expect(ops(view.calls, 'ask.watch')).toEqual([{ sessionId: 's1' }]);
    expect(await screen.findByText('Thinking.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop generating' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(input().value).toBe('');

    view.emit(
      patch('Central banks ', 14, {
        steps: [{ id: 'a', text: 'Searching your data', loading: false }],
      }),
    );
    view.emit(patch('held rates [1].', 29));
    const answerView = await screen.findByRole('article', { name: 'Answer' });
    await waitFor(() => expect(answerView.textContent).toContain('Central banks held rates'));
    expect(within(answerView).getByText('Searching your data')).toBeTruthy();
    expect(screen.queryByText('Thinking.')).toBeNull();

    view.emit(patch('', 29, { phase: 'done', data: answer(), title: 'Central banks' }));
    expect(
      await within(answerView).findByRole('link', { name: 'Source 1: Rates story 1' }),
    ).toBeTruthy();
    expect(
      within(answerView).getByRole('button', { name: 'Will rates fall next year?' }),
    ).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Send' })).toBeTruthy();
    // Typed out in turns with the @help hint: waited for over a whole cycle (6.7 s).
    const composer = await screen.findByPlaceholderText(
      'Ask follow up...',
      {},
      { timeout: 10_000 },
    );
    expect(composer.tagName).toBe('TEXTAREA');
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 3, name: 'Central banks' }).textContent).toBe(
        'Central banks',
      ),
    );
  });

  it('stop generating asks the worker to stop, and the answer says it stopped', async () => {
    const view = await renderAssistant({ path: '/ask-needl/full' });
    await ask('Tell me everything');
    fireEvent.click(await screen.findByRole('button', { name: 'Stop generating' }));
    await waitFor(() => expect(ops(view.calls, 'ask.stop')).toEqual([{ sessionId: 's1' }]));
    view.emit(patch('Partial', 7, { phase: 'stopped', generatingStopped: true }));
    expect(await screen.findByText('Stopped generating.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
  });

  it('asks for the chat again when a patch shows text was missed', async () => {
    const view = await renderAssistant({ path: '/ask-needl/full' });
    await ask('Rates?');
    await screen.findByText('Thinking.');
    view.chats.s1 = chat([
      bot({ prompt: 'Rates?', phase: 'streaming', streamingAnswer: 'Held steady', data: null }),
    ]);
    // 11 characters came before this patch; the tab has 0.
    view.emit(patch(' today.', 18));
    await waitFor(() => expect(ops(view.calls, 'ask.watch')).toHaveLength(2));
    view.emit(patch(' Yes.', 16));
    const answerView = await screen.findByRole('article', { name: 'Answer' });
    await waitFor(() => expect(answerView.textContent).toContain('Held steady Yes.'));
  });
});

describe('the address and the active session', () => {
  it('opens the session named by sessionId, and new chat removes it', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat() },
    });
    const answerView = await screen.findByRole('article', { name: 'Answer' });
    expect(answerView.textContent).toContain('Central banks held rates');
    expect(ops(view.calls, 'ask.watch')).toEqual([{ sessionId: 's1' }]);
    await waitFor(() => expect(view.chatState().lastActiveSessionId).toBe('s1'));

    fireEvent.click(screen.getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(searchOf(view.history)).toEqual({}));
    expect(screen.queryByRole('article', { name: 'Answer' })).toBeNull();
    expect(await screen.findByPlaceholderText('Ask me anything...')).toBeTruthy();
    await waitFor(() =>
      expect(view.chatState()).toMatchObject({
        searchWithin: 'all',
        currentFeedOrDocumentId: 'home',
        webSearch: false,
        lastActiveSessionId: null,
      }),
    );
    expect(ops(view.calls, 'ask.unwatch')).toEqual([{ sessionId: 's1' }]);
  });

  it('a different sessionId in the address becomes the active session', async () => {
    const other = chat([bot({ id: 'm9', streamingAnswer: 'Other answer.', data: null })], {
      sessionId: 's2',
    });
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat(), s2: other },
    });
    await screen.findByRole('article', { name: 'Answer' });
    view.history.push('/ask-needl/full?sessionId=s2');
    await waitFor(() =>
      expect(screen.getByRole('article', { name: 'Answer' }).textContent).toContain(
        'Other answer.',
      ),
    );
    expect(ops(view.calls, 'ask.watch')).toEqual([{ sessionId: 's1' }, { sessionId: 's2' }]);
  });

  it('shows a question asked in another tab of the same session', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat() },
    });
    await screen.findByRole('article', { name: 'Answer' });
    view.emit(
      reset(
        chat([
          bot(),
          bot({
            id: 'm2',
            prompt: 'And next year?',
            phase: 'loading',
            streamingAnswer: '',
            data: null,
          }),
        ]),
      ),
    );
    expect(await screen.findByText('And next year?')).toBeTruthy();
    expect(await screen.findByText('Thinking.')).toBeTruthy();
    expect(screen.getAllByRole('article', { name: 'Answer' })).toHaveLength(2);
  });

  it('clear empties the chat and forgets the session', async () => {
    const view = await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: { s1: chat() },
    });
    await screen.findByRole('article', { name: 'Answer' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(searchOf(view.history).sessionId).toBeUndefined());
    expect(screen.queryByRole('article', { name: 'Answer' })).toBeNull();
  });
});

describe('answers', () => {
  const one = (message = bot()) => ({ s1: chat([message]) });

  it('shows the LOW and GENERATIVE notices in the spec words', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: one(bot({ data: answer({ answer_quality: 'LOW' }) })),
    });
    expect(
      await screen.findByText(
        'We found that the answer may not be satisfactory. Please verify the information or rephrase your question.',
      ),
    ).toBeTruthy();
    cleanup();
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: one(bot({ data: answer({ answer_quality: 'GENERATIVE' }) })),
    });
    expect(
      await screen.findByText(
        'This seems to be a generative response. If you were expecting facts, please rephrase or clarify in a follow-up.',
      ),
    ).toBeTruthy();
  });

  it('shows the error bubble for a failed answer, and the PRO badge on a pro one', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: {
        s1: chat([
          bot({ id: 'm1', pro: true }),
          bot({ id: 'm2', phase: 'error', error: 'boom', data: null, streamingAnswer: '' }),
        ]),
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Uh-oh! Something went wrong');
    const [first, second] = screen.getAllByRole('article', { name: 'Answer' });
    expect(within(first).getByText('PRO')).toBeTruthy();
    expect(within(second).queryByText('PRO')).toBeNull();
    expect(screen.queryByText('boom')).toBeNull();
  });

  it('sends feedback with the form and thanks the user', async () => {
    const view = await renderAssistant({ path: '/ask-needl/full?sessionId=s1', chats: one() });
    fireEvent.click(await screen.findByRole('button', { name: 'Bad answer' }));
    const form = screen.getByRole('form', { name: 'Feedback' });
    expect(within(form).getByText('This answer was incorrect.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Tell us more (optional)'), {
      target: { value: 'Wrong year' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Thanks for your feedback!')).toBeTruthy();
    expect(ops(view.calls, 'ask.feedback')).toEqual([
      { feedback: 'INCORRECT', message_id: 'm1', message: 'Wrong year' },
    ]);
    expect(screen.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('a failed feedback shows the generic failure toast', async () => {
    await renderAssistant({
      path: '/ask-needl/full?sessionId=s1',
      chats: one(),
      handlers: {
        'ask.feedback': () => {
          throw new Error('HTTP 500');
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Good answer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByText('Oops! Something Went Wrong. Please Try Again Later :('),
    ).toBeTruthy();
  });
});
