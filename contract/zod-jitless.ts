import { z } from 'zod';

/**
 * In a browser, zod must not compile parsers with `new Function`: the app's CSP forbids eval,
 * and zod's probe for it (a caught `new Function('')`) is still reported as a violation on every
 * load. zod reads the setting when each object schema is made, so this module is imported
 * before any schema exists: by the contract's leaf modules (common.ts, define.ts), by the
 * browser entries (src/main.tsx, worker/shared-worker.ts, worker/dedicated-worker.ts) and by
 * src modules that make schemas of their own. Node (the server, headless workers, tests) has no
 * CSP and keeps zod's faster compiled parsers.
 */
const inBrowser =
  typeof document !== 'undefined' ||
  typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';

if (inBrowser) z.config({ jitless: true });
