import { it } from 'vitest';
import { createHarness } from './harness';
import { ask, filingsReader, writeFilings } from './assistant-fixture';

it('prints', async () => {
  const h = await createHarness('sqlite', { seed: false });
  await writeFilings(h);
  const { token } = await filingsReader(h);
  for (const prompt of [
    'How does inflation affect Nike sales in Peru?',
    'Does Nike sell bicycles in Peru because of inflation?',
    'What is the xylophone frobnication of zanzibar?',
    'What did Nike say about tariffs on sneakers in Brazil?',
    'inflation Peru Chile Argentina',
  ]) {
    const r = await ask(h, token, { prompt });
    console.log(
      prompt,
      '\n',
      r.done?.generated_answer.answer,
      r.done?.answer_quality,
      r.done?.retrieved_results.length,
    );
  }
  await h.close();
}, 60000);
