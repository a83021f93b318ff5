import '../contract/zod-jitless';
import type { Endpoint } from 'comlink';
import { browserDeps, type WorkerGlobalScopeLike } from './browser-deps';
import { createWorkspace } from './create-workspace';

/**
 * The fallback where SharedWorker does not exist: one worker per tab, serving it over the
 * worker's own global. Logout and sign-in still reach every tab through BroadcastChannel, and
 * the Web Locks keep the auth poll to one per browser.
 */
const scope = self as unknown as WorkerGlobalScopeLike & Endpoint;
createWorkspace(browserDeps(scope)).connect(scope);
