// First: V8's settings, before any other module is loaded.
import './heap-flags';
import { readConfig } from './config';
import { DEMO_ACCOUNT } from './auth';
import { startServer } from './start';

/** `npm start`: configuration from the environment, then serve until SIGINT/SIGTERM. */
const main = async () => {
  const config = readConfig();
  const server = await startServer({ ...config, seed: true });
  const name = config.product.charAt(0).toUpperCase() + config.product.slice(1);
  console.log(`${name} workspace on http://localhost:${server.port}`);
  console.log(`Demo sign-in: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('close failed:', err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
};

main().catch((err: unknown) => {
  console.error(`could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
