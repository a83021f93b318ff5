import { useEffect, useState } from 'react';
import { TYPEWRITER, WAITING_PHRASES, WAITING_PHRASE_MS, WAITING_STEP_MS } from './assistant-texts';

/**
 * Texts that change with time: the waiting text, the typewriter placeholder and the typed chat
 * title. Each is a pure function of the time elapsed (tested as such) driven by one timer.
 */

/**
 * The waiting text `elapsed` ms after waiting began: 1 to 3 dots, one more every 500 ms, and the
 * next phrase every 12 000 ms. "Cycles through" (001 §2): after the last phrase comes the first.
 */
export function waitingText(elapsed: number): string {
  const step = Math.floor(elapsed / WAITING_STEP_MS);
  const phrase = Math.floor(elapsed / WAITING_PHRASE_MS) % WAITING_PHRASES.length;
  return `${WAITING_PHRASES[phrase]}${'.'.repeat((step % 3) + 1)}`;
}

/** The waiting text while `active`, moving every 500 ms; it starts over on each wait. */
export function useWaitingText(active: boolean): string | null {
  const [steps, setSteps] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    setSteps(0);
    const timer = setInterval(() => setSteps((n) => n + 1), WAITING_STEP_MS);
    return () => clearInterval(timer);
  }, [active]);
  return active ? waitingText(steps * WAITING_STEP_MS) : null;
}

type Frame = { text: string; next: number };

/**
 * The typewriter placeholder at `elapsed` ms: each text is held in full for 2000 ms, deleted at
 * 20 ms a character, then the next typed at 25 ms a character; the first shows in full at once.
 * `next` is when the shown text changes next.
 */
export function typewriterFrame(texts: readonly string[], elapsed: number): Frame {
  const { typeMs, deleteMs, holdMs } = TYPEWRITER;
  const following = (i: number) => texts[(i + 1) % texts.length];
  const cycle = texts.reduce(
    (sum, text, i) => sum + holdMs + text.length * deleteMs + following(i).length * typeMs,
    0,
  );
  if (texts.length < 2 || cycle <= 0) return { text: texts[0] ?? '', next: Infinity };
  const t = elapsed % cycle;
  const base = elapsed - t;
  let at = 0;
  for (let i = 0; i < texts.length; i += 1) {
    const text = texts[i];
    if (t < at + holdMs) return { text, next: base + at + holdMs };
    at += holdMs;
    if (t < at + text.length * deleteMs) {
      const gone = Math.floor((t - at) / deleteMs);
      return { text: text.slice(0, text.length - gone), next: base + at + (gone + 1) * deleteMs };
    }
    at += text.length * deleteMs;
    const next = following(i);
    if (t < at + next.length * typeMs) {
      const typed = Math.floor((t - at) / typeMs);
      return { text: next.slice(0, typed), next: base + at + (typed + 1) * typeMs };
    }
    at += next.length * typeMs;
  }
  return { text: texts[0], next: base + cycle };
}

/** The typewriter placeholder while `running` (the input is empty); the first text otherwise. */
export function useTypewriter(texts: readonly string[], running: boolean): string {
  const key = texts.join('\u0000');
  const [text, setText] = useState(texts[0] ?? '');
  useEffect(() => {
    const list = key.split('\u0000');
    setText(list[0]);
    if (!running || list.length < 2) return undefined;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    const tick = (elapsed: number) => {
      const frame = typewriterFrame(list, elapsed);
      setText(frame.text);
      timer = setTimeout(() => tick(frame.next), Math.max(0, started + frame.next - Date.now()));
    };
    tick(0);
    return () => clearTimeout(timer);
  }, [key, running]);
  return text;
}

/** A title typed out at `msPerChar`; a title seen before in this component shows at once. */
export function useTypedTitle(title: string, msPerChar: number): string {
  const [shown, setShown] = useState(title);
  useEffect(() => {
    if (!title) {
      setShown('');
      return undefined;
    }
    let count = 0;
    setShown('');
    const timer = setInterval(() => {
      count += 1;
      setShown(title.slice(0, count));
      if (count >= title.length) clearInterval(timer);
    }, msPerChar);
    return () => clearInterval(timer);
  }, [title, msPerChar]);
  return shown;
}
