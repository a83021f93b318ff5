import '../contract/zod-jitless';
import type { Endpoint } from 'comlink';
import { browserDeps, type WorkerGlobalScopeLike } from './browser-deps';
import { createWorkspace } from './create-workspace';

/** The SharedWorker entry: one workspace for every tab of the browser profile. */
type SharedWorkerScope = WorkerGlobalScopeLike & {
  onconnect: ((event: { ports: readonly Endpoint[] }) => void) | null;
};

const scope = self as unknown as SharedWorkerScope;
const workspace = createWorkspace(browserDeps(scope));
scope.onconnect = (event) => {
  const port = event.ports[0];
  if (port) workspace.connect(port);
};
