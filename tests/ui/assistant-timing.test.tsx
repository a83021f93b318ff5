import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../../src/features/assistant/composer';
import {
  useTypedTitle,
  useWaitingText,
  waitingText,
} from '../../src/features/assistant/timed-text';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

function Waiting() {
  return <p data-testid="waiting">{useWaitingText(true)}</p>;
}

function Title(props: { title: string }) {
  return <h3 data-testid="title">{useTypedTitle(props.title, 15)}</h3>;
}

describe('the waiting text (001 §4, §9)', () => {
  it('adds a dot every 500 ms, one to three, and moves to the next phrase every 12 000 ms', () => {
    render(<Waiting />);
    const text = () => screen.getByTestId('waiting').textContent;
    expect(text()).toBe('Thinking.');
    advance(499);
    expect(text()).toBe('Thinking.');
    advance(1);
    expect(text()).toBe('Thinking..');
    advance(500);
    expect(text()).toBe('Thinking...');
    advance(500);
    expect(text()).toBe('Thinking.');
    advance(12_000 - 1500);
    expect(text()).toBe('Exploring insights.');
    advance(12_000);
    expect(text()).toBe('Finalizing answer.');
    advance(12_000);
    expect(text()).toBe('Thinking.');
  });

  it('is a function of the time waited', () => {
    expect([0, 500, 1000, 1500, 11_999, 12_000, 24_500].map(waitingText)).toEqual([
      'Thinking.',
      'Thinking..',
      'Thinking...',
      'Thinking.',
      'Thinking...',
      'Exploring insights.',
      'Finalizing answer..',
    ]);
  });
});

describe('chat titles', () => {
  it('are typed at 15 ms per character', () => {
    render(<Title title="Rate outlook" />);
    const text = () => screen.getByTestId('title').textContent;
    expect(text()).toBe('');
    advance(15);
    expect(text()).toBe('R');
    advance(15 * 3);
    expect(text()).toBe('Rate');
    advance(15 * 8);
    expect(text()).toBe('Rate outlook');
  });
});

function renderComposer(patch: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSend = vi.fn(() => Promise.resolve(true));
  const onStop = vi.fn();
  const view = render(
    <Composer
      product="needl"
      hasMessages={false}
      answering={false}
      disabled={false}
      webSearch={null}
      onSend={onSend}
      onStop={onStop}
      {...patch}
    />,
  );
  const box = screen.getByLabelText('Your question') as HTMLTextAreaElement;
  return { ...view, onSend, onStop, box };
}

describe('the question box', () => {
  it('types its placeholders in turn: 2000 ms shown, deleted at 20 ms, typed at 25 ms a character', () => {
    const { box } = renderComposer();
    expect(box.placeholder).toBe('Ask me anything...');
    advance(2000 + 20);
    expect(box.placeholder).toBe('Ask me anything..');
    advance(20 * 17);
    expect(box.placeholder).toBe('');
    advance(25 * 3);
    expect(box.placeholder).toBe('Add');
    advance(25 * 41);
    expect(box.placeholder).toBe('Add @help to your question if you need help.');
    advance(2000 + 20 * 44 + 25 * 18);
    expect(box.placeholder).toBe('Ask me anything...');
  });

  it('says "Ask follow up..." once the chat has messages', () => {
    const { box } = renderComposer({ hasMessages: true });
    expect(box.placeholder).toBe('Ask follow up...');
  });

  it('sends on Enter, keeps Shift+Enter for a new line, and never sends an empty question', () => {
    const { box, onSend } = renderComposer();
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: 'Rates?' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ prompt: 'Rates?', mode: 'answer', pro: false });
  });

  it('does not send while disabled, and shows stop instead of send while answering', () => {
    const disabled = renderComposer({ disabled: true });
    fireEvent.change(disabled.box, { target: { value: 'Rates?' } });
    fireEvent.keyDown(disabled.box, { key: 'Enter' });
    expect(disabled.onSend).not.toHaveBeenCalled();
    cleanup();

    const answering = renderComposer({ answering: true });
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Stop generating' }));
    expect(answering.onStop).toHaveBeenCalledTimes(1);
  });

  it('sends in search mode and with Pro when chosen', () => {
    const { box, onSend } = renderComposer();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Search mode' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Pro' }));
    fireEvent.change(box, { target: { value: 'rates' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith({ prompt: 'rates', mode: 'search', pro: true });
  });
});
