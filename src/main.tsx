// First: zod must be jitless before any schema exists (the CSP forbids eval).
import '../contract/zod-jitless';
import { createBrowserHistory } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ShellApp, startShell } from './boot';
import { UserFacingError } from './lib/user-message';
import { ErrorScreen } from './screens/error-screen';
import { detectAdblocker } from './shell/adblock';
import { PageLoading } from './shell/lazy-page';
import { registerServiceWorker } from './shell/service-worker';
import { connectBrowserWorkspace } from './workspace-client';
import './styles.css';

// Wiring only: the browser's worker, history, reload and storage into the shell.
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element to render the app into');
const root = createRoot(container);
root.render(<PageLoading />);

registerServiceWorker();
const reload = () => window.location.reload();
const START_TIMEOUT_MS = 20_000;

const started = startShell({
  client: connectBrowserWorkspace(),
  product: __PRODUCT__,
  history: createBrowserHistory(),
  reload,
  storage: window.sessionStorage,
  adblockerInstalled: () => detectAdblocker(),
});
const timeout = new Promise<never>((_, reject) =>
  window.setTimeout(
    () =>
      reject(
        new UserFacingError('The workspace worker did not answer. Reload the page to try again.'),
      ),
    START_TIMEOUT_MS,
  ),
);

Promise.race([started, timeout]).then(
  (shell) =>
    root.render(
      <StrictMode>
        <ShellApp shell={shell} reload={reload} />
      </StrictMode>,
    ),
  (error: unknown) => root.render(<ErrorScreen error={error} onBack={reload} />),
);
