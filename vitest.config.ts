import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  define: { __PRODUCT__: JSON.stringify('needl') },
  test: {
    // Vitest's default for `run` is one worker fewer than the cores: one on 2 cores, every file
    // in turn. Most files wait on sockets, PostgreSQL and timers more than they compute, and the
    // projects are independent: two files at once on 2 cores, from any project.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: { name: 'contract', include: ['tests/contract/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // Password hashing at a test work factor (see the file).
          setupFiles: ['tests/server/setup.ts'],
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      },
      // jsdom has no MessageChannel worth the name: the worker runs headless in node with fake-indexeddb.
      {
        extends: true,
        test: {
          name: 'worker',
          include: ['tests/worker/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
          // Migrates and seeds one SQLite database for the run; each file's server starts on a copy.
          globalSetup: ['tests/worker/global-setup.ts'],
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/ui/setup.ts'],
          // A file's first test also pays for transforming its screens, two files at a time.
          testTimeout: 15000,
        },
      },
    ],
  },
});
