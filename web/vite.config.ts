import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The app is served by the service itself (src/web/appFiles.ts): hashed names under /assets,
// index.html for every app route. `npm run dev:web` proxies the API to a running `npm start`.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  // The server's HTTP contracts (src/contracts/: zod only), the one definition of every answer the app reads.
  resolve: { alias: { '@contracts': fileURLToPath(new URL('../src/contracts', import.meta.url)) } },
  build: {
    outDir: '../dist/webapp',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: { '/app/api': 'http://localhost:8000', '/api': 'http://localhost:8000', '/js': 'http://localhost:8000' },
  },
});
