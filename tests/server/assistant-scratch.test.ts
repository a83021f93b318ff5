import { it } from 'vitest';
import { createHarness } from './harness';
import { ask, filingsReader, writeFilings } from './assistant-fixture';

it('prints', async () => {
  const h = await createHarness('sqlite', { seed: false });
  await writeFilings(h);
  const { token } = await filingsReader(h);
  for (const prompt of ["What are Nike's risks from foreign currency exchange rates?", 'How does Western Digital depend on suppliers?', 'xyzzy plugh frobnicate?']) {
    const t0 = Date.now();
    const r = await ask(h, token, { prompt });
    console.log(Date.now() - t0, 'ms', r.status, JSON.stringify(r.events.filter((e) => e.status !== 'GENERATED_ANSWER' && e.status !== 'DONE')), r.errors);
    console.log(r.done?.generated_answer.answer, r.done?.answer_quality, r.done?.followup_questions);
    console.log(JSON.stringify(r.done?.generated_answer.sentences[0]?.citations[0], null, 1)?.slice(0, 1500));
    console.log(JSON.stringify(r.done?.retrieved_results.map((x) => [x.title_label, x.highlights.length, x.highlight_indexes.length])));
  }
  const s = await ask(h, token, { prompt: 'foreign currency', mode: 'search' });
  console.log(JSON.stringify(s.events, null, 1).slice(0, 3000));
  console.log(h.logs.join('\n'));
  await h.close();
}, 60000);
