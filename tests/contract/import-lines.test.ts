import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The architecture's import lines are lint rules (eslint.config.js); these cases make sure the
 * rules really refuse what they must and let through what they may, so a config edit that
 * silently disables one fails here.
 */
const eslint = new ESLint({ cwd: process.cwd() });

// Loading the config and its plugins takes seconds on a busy machine: once, before the cases.
beforeAll(() => eslint.lintText('', { filePath: 'src/x.ts' }), 60_000);

const ruleIds = async (filePath: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId);
};

describe('import lines', () => {
  it.each([
    ['src/x.ts', "import { createWorkspace } from '../worker/create-workspace';\n"],
    ['src/x.ts', "import { startServer } from '../server/start';\n"],
    ['worker/x.ts', "import { startServer } from '../server/start';\n"],
    ['worker/x.ts', "import { formatCount } from '../src/lib/format';\n"],
    ['server/x.ts', "import { createWorkspace } from '../worker/create-workspace';\n"],
    ['server/x.ts', "import { formatCount } from '../src/lib/format';\n"],
    ['contract/x.ts', "import { Hono } from 'hono';\n"],
    ['contract/x.ts', "import { formatCount } from '../src/lib/format';\n"],
    ['src/state/x.ts', "import { ChatView } from '../features/assistant/chat-view';\n"],
    ['src/state/x.ts', "import { createWorkspace } from '../../worker/create-workspace';\n"],
  ])('%s may not say %s', async (file, code) => {
    expect(await ruleIds(file, `${code}export const y = 1;\n`)).toContain('no-restricted-imports');
  });

  it.each([
    ['fetch', "export const f = () => fetch('/api/health');\n"],
    ['EventSource', "export const f = () => new EventSource('/api/x');\n"],
    ['indexedDB', "export const f = () => indexedDB.open('x');\n"],
  ])('src/ may not use %s', async (_name, code) => {
    const ids = await ruleIds('src/x.ts', code);
    expect(ids).toContain('no-restricted-globals');
  });

  it('src/ may not reach fetch through window', async () => {
    const ids = await ruleIds('src/x.ts', "export const f = () => window.fetch('/api');\n");
    expect(ids).toContain('no-restricted-properties');
  });

  it('lets each layer import what it may', async () => {
    expect(
      await ruleIds(
        'src/x.ts',
        "import { AUTH_POLL_MS } from '../contract';\nexport const y = AUTH_POLL_MS;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        'worker/x.ts',
        "import { AUTH_POLL_MS } from '../contract';\nexport const y = AUTH_POLL_MS;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        'contract/x.ts',
        "import { z } from 'zod';\nimport { HEADERS } from './constants';\nexport const y = [z, HEADERS];\n",
      ),
    ).toEqual([]);
    // The one stemmer every layer matches words with (contract/words.ts).
    expect(
      await ruleIds(
        'contract/x.ts',
        "import { stemmer } from 'stemmer';\nexport const y = stemmer;\n",
      ),
    ).toEqual([]);
    // The one server-sent-events parser (contract/event-stream.ts).
    expect(
      await ruleIds(
        'contract/x.ts',
        "import { EventSourceParserStream } from 'eventsource-parser/stream';\nexport const y = EventSourceParserStream;\n",
      ),
    ).toEqual([]);
    expect(await ruleIds('worker/x.ts', "export const f = () => fetch('/api/health');\n")).toEqual(
      [],
    );
  });
});
