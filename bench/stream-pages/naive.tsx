import { createParser } from 'eventsource-parser';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * bench/stream's baseline: the naive chat renderer. The same question streams from the real
 * server's ask endpoint (read on the main thread with fetch and eventsource-parser), and every
 * update re-renders the WHOLE answer with react-markdown + remark-gfm. Updates are coalesced to
 * one per frame, as the worker coalesces ours, so both pages get the same number of updates;
 * the chat input is a sibling (typing re-renders only it). bench/stream's probe records
 * frames, long tasks and keystrokes; this page says when the first chunk and DONE arrived.
 */

type Probe = { firstChunk: number | null; markDone(): void };
type Ask = { product: string; prompt: string; token: string };

declare global {
  interface Window {
    __stream: Probe;
    __naive: { ask(input: Ask): Promise<void> };
  }
}

let show: (text: string) => void = () => undefined;

function Answer() {
  const [text, setText] = useState('');
  useEffect(() => {
    show = setText;
  }, []);
  return (
    <article id="answer">
      <ReactMarkdown remarkPlugins={[remarkGfm]}>{text}</ReactMarkdown>
    </article>
  );
}

function Input() {
  const [value, setValue] = useState('');
  return (
    <textarea
      aria-label="Ask a question"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      rows={2}
      cols={80}
    />
  );
}

async function ask({ product, prompt, token }: Ask) {
  const q = new URLSearchParams({ prompt, stream: 'true' });
  const res = await fetch(`/api/ml/ask-${product}?${q}`, {
    headers: { token, accept: 'text/event-stream' },
  });
  if (!res.ok || !res.body) throw new Error(`ask answered ${res.status}`);
  let answer = '';
  let scheduled = false;
  const render = () => {
    scheduled = false;
    show(answer);
  };
  const parser = createParser({
    onEvent(event) {
      if (event.data.startsWith('[ERROR]')) throw new Error(event.data);
      const e = JSON.parse(event.data) as
        | { status: 'GENERATED_ANSWER'; data: { answer_chunk: string } }
        | { status: 'DONE'; data: { generated_answer: { answer: string } } }
        | { status: 'INTERMEDIATE_STEP' | 'GENERATING_CITATIONS' };
      if (e.status === 'GENERATED_ANSWER') {
        if (window.__stream.firstChunk === null) window.__stream.firstChunk = performance.now();
        answer += e.data.answer_chunk;
        if (!scheduled) {
          scheduled = true;
          requestAnimationFrame(render);
        }
      } else if (e.status === 'DONE') {
        window.__stream.markDone();
        answer = e.data.generated_answer.answer;
        show(answer);
      }
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
}

window.__naive = { ask };
createRoot(document.getElementById('root')!).render(
  <main>
    <Input />
    <Answer />
  </main>,
);
