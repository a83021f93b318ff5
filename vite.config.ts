import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const product = process.env.PRODUCT ?? 'needl';

// Source maps carry the original source: built only when asked for (SOURCEMAP=1), never
// shipped by default.
const sourcemap = process.env.SOURCEMAP === '1';

/** The service worker's entry; built to /sw.js (a stable address, so it can update itself). */
const SERVICE_WORKER = 'sw';

/**
 * Writes the build's file list into /sw.js (worker/service-worker.ts's placeholder): every file
 * of the build but the service worker itself and source maps, and a version that changes with
 * them (hashed names change with content), so a new build installs a new cache and drops the old.
 */
function appShellManifest(): Plugin {
  return {
    name: 'app-shell-manifest',
    apply: 'build',
    async writeBundle(options, bundle) {
      const files = Object.keys(bundle)
        .filter((file) => file !== `${SERVICE_WORKER}.js` && !file.endsWith('.map'))
        .map((file) => `/${file}`)
        .sort();
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
      const path = join(options.dir ?? 'dist', `${SERVICE_WORKER}.js`);
      const code = await readFile(path, 'utf8');
      const placeholder = /(["'`])__APP_SHELL_MANIFEST__\1/;
      if (!placeholder.test(code)) throw new Error('app shell: sw.js has no manifest placeholder');
      const manifest = JSON.stringify(JSON.stringify({ version, files }));
      await writeFile(
        path,
        code.replace(placeholder, () => manifest),
      );
    },
  };
}

// The product name is baked into the build (shared/ARCHITECTURE.md "The product name").
export default defineConfig({
  plugins: [react(), appShellManifest()],
  define: { __PRODUCT__: JSON.stringify(product) },
  build: {
    outDir: 'dist',
    sourcemap,
    rollupOptions: {
      input: {
        index: resolve(__dirname, 'index.html'),
        [SERVICE_WORKER]: resolve(__dirname, 'worker/service-worker.ts'),
      },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === SERVICE_WORKER ? `${SERVICE_WORKER}.js` : 'assets/[name]-[hash].js',
      },
    },
  },
  worker: { format: 'es' },
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 8080}` } },
});
