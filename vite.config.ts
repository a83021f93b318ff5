import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const product = process.env.PRODUCT ?? 'needl';

// Source maps carry the original source: built only when asked for (SOURCEMAP=1), never
// shipped by default.
const sourcemap = process.env.SOURCEMAP === '1';

// The product name is baked into the build (shared/ARCHITECTURE.md "The product name").
export default defineConfig({
  plugins: [react()],
  define: { __PRODUCT__: JSON.stringify(product) },
  build: { outDir: 'dist', sourcemap },
  worker: { format: 'es' },
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 8080}` } },
});
