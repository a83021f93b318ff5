import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const product = process.env.PRODUCT ?? 'needl';

// The product name is baked into the build (shared/ARCHITECTURE.md "The product name").
export default defineConfig({
  plugins: [react()],
  define: { __PRODUCT__: JSON.stringify(product) },
  build: { outDir: 'dist', sourcemap: true },
  worker: { format: 'es' },
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 8080}` } },
});
