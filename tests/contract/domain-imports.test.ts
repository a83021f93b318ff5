import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import lines inside a layer (lint/domain-imports.js, wired in eslint.config.js): server
 * domains import each other only through index.ts and only down the declared order; a UI
 * feature imports another only through its index.ts. These cases make sure the rules refuse
 * what they must and let through what they may.
 */
const eslint = new ESLint({ cwd: process.cwd() });

// Loading the config and its plugins takes seconds on a busy machine: once, before the cases.
beforeAll(() => eslint.lintText('', { filePath: 'server/x.ts' }), 60_000);

const messages = async (filePath: string, code: string) => {
  const [result] = await eslint.lintText(`${code}export const y = x;\n`, { filePath });
  return result.messages
    .filter((m) => m.ruleId?.startsWith('domains/'))
    .map((m) => `${m.ruleId}: ${m.message}`);
};

describe('server domains', () => {
  it('refuses an import of another domain internal file', async () => {
    expect(
      await messages('server/boards/x.ts', "import { toCard as x } from '../documents/cards';\n"),
    ).toEqual([
      'domains/server-domains: server/boards may import server/documents only through its index.ts, not documents/cards.',
    ]);
    // From a nested folder, resolved from the file: server/ingest/filings/ -> server/documents.
    expect(
      await messages(
        'server/ingest/filings/x.ts',
        "import { absoluteUrl as x } from '../../documents/sanitize';\n",
      ),
    ).toEqual([
      'domains/server-domains: server/ingest may import server/documents only through its index.ts, not documents/sanitize.',
    ]);
  });

  it('refuses an import that goes back up the order (a cycle)', async () => {
    // documents is below content (the write pipeline), boards below search.
    expect(
      await messages(
        'server/documents/x.ts',
        "import { insertDocuments as x } from '../content';\n",
      ),
    ).toEqual([
      'domains/server-domains: server/documents may not import server/content: content comes after documents in the server domain order (eslint.config.js SERVER_DOMAIN_ORDER), so this import goes back up and would make a cycle. Move what both need down, or the caller up.',
    ]);
    const [backUp] = await messages(
      'server/boards/x.ts',
      "import { engineFor as x } from '../search';\n",
    );
    expect(backUp).toContain('server/boards may not import server/search');
    const [reExport] = await messages(
      'server/sync/x.ts',
      "export { resolveAuth } from '../auth';\nconst x = 1;\n",
    );
    expect(reExport).toContain('server/sync may not import server/auth');
  });

  it('refuses a folder missing from the order, and core importing a domain', async () => {
    expect(
      await messages('server/nowhere/x.ts', "import { lockContent as x } from '../documents';\n"),
    ).toEqual([
      'domains/server-domains: server/nowhere/ is not in the server domain order: add it to SERVER_DOMAIN_ORDER in eslint.config.js, after every domain it imports.',
    ]);
    expect(
      await messages('server/db/x.ts', "import { recordChange as x } from '../sync';\n"),
    ).toEqual([
      'domains/server-domains: server/db is core (below every domain) and may not import server/sync.',
    ]);
    expect(
      await messages('server/errors2.ts', "import { recordChange as x } from './sync';\n"),
    ).toEqual([
      'domains/server-domains: server/errors2.ts is core (below every domain) and may not import server/sync.',
    ]);
  });

  it('lets a domain import lower domains through their index, core and contract freely', async () => {
    expect(
      await messages(
        'server/content/x.ts',
        [
          "import { lockContent } from '../documents';",
          "import { engineFor } from '../search';",
          "import { FeedTouches } from '../boards';",
          "import { iso } from '../time';",
          "import type { Db } from '../db/schema';",
          "import { keywordProblem } from '../../contract/boards';",
          "import { store } from './store';",
          'const x = [lockContent, engineFor, FeedTouches, iso, keywordProblem, store] as unknown as Db;',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
    // The composition sits above every domain; core files may name a domain's types.
    expect(
      await messages('server/start.ts', "import { createIngestRunner as x } from './content';\n"),
    ).toEqual([]);
    expect(
      await messages('server/context.ts', "import type { ChangeInput as x } from './sync';\n"),
    ).toEqual([]);
  });
});

describe('UI features', () => {
  it('refuses an import of another feature internal file', async () => {
    expect(
      await messages(
        'src/features/search/x.ts',
        "import { ALL_TAB as x } from '../documents/feed-tabs';\n",
      ),
    ).toEqual([
      'domains/feature-index: src/features/search may import src/features/documents only through its index.ts, not documents/feed-tabs.',
    ]);
  });

  it('lets a feature import another through its index, and its own files', async () => {
    expect(
      await messages(
        'src/features/search/x.ts',
        "import { ALL_TAB } from '../documents';\nimport { z } from './y';\nconst x = [ALL_TAB, z];\n",
      ),
    ).toEqual([]);
  });
});

describe('worker domains', () => {
  it('refuses an import of another domain folder internal file', async () => {
    expect(
      await messages(
        'worker/domains/search/x.ts',
        "import { feedKeysOfDocs as x } from '../boards/feed-store';\n",
      ),
    ).toEqual([
      'domains/worker-domain-index: worker/domains/search may import worker/domains/boards only through its index.ts, not boards/feed-store.',
    ]);
    // A one-file domain (worker/domains/documents.ts) is held to the same line.
    expect(
      await messages(
        'worker/domains/documents.ts',
        "import { internCitations as x } from './assistant/assistant-store';\n",
      ),
    ).toEqual([
      'domains/worker-domain-index: worker/domains/documents may import worker/domains/assistant only through its index.ts, not assistant/assistant-store.',
    ]);
  });

  it('lets a domain import its own files, a one-file domain, a folder index and the core', async () => {
    expect(
      await messages(
        'worker/domains/boards/x.ts',
        [
          "import { feedKeysOfDocs } from './feed-store';",
          "import { readStates } from '../read-state';",
          "import { searchDomain } from '../search';",
          "import { defineWorkerDomain } from '../../registry';",
          'const x = [feedKeysOfDocs, readStates, searchDomain, defineWorkerDomain];',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
