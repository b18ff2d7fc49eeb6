import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress';

/** The API the dev server forwards to: the server that `pnpm dev` starts beside it (PORT, default 3000). */
const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the build: the server would publish them (1.7 MB for a 334 kB bundle).
    sourcemap: false,
    // No inline module-preload polyfill: the server's CSP allows same-origin scripts only.
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: { '/trpc': api, '/health': api, '/docs': api, '/openapi.json': api },
  },
  preview: { port: 4173, proxy: { '/trpc': api } },
});
