import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { earlyScript } from './build/early-script';
import { precompress } from './build/precompress';

/** The modules of the pages a returning student usually opens the app on, and the data layer. */
const landingPage = (page: string) => [page, 'src/session/DataLayer.tsx'];
const FEED = landingPage('src/pages/feed/FeedPage.tsx');

/** The API the dev server forwards to: the server that `pnpm dev` starts beside it (PORT, default 3000). */
const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/**
 * The API's paths, forwarded by the dev and preview servers: /trpc, and what the app calls over
 * REST too (the first script's renewal and first page: src/session/early.ts; uploads; photos).
 */
const apiProxy = Object.fromEntries(
  ['/trpc', '/health', '/docs', '/openapi.json', '/autenticacao', '/post', '/media', '/group'].map(
    (path) => [path, api],
  ),
);

export default defineConfig({
  plugins: [
    react(),
    // What a returning student's first page needs, by address: downloaded as the page opens.
    earlyScript({
      landing: {
        '/': FEED,
        '/feed': FEED,
        '/partidas': landingPage('src/pages/matches/MatchesPage.tsx'),
        '/grupos': landingPage('src/pages/groups/GroupsPage.tsx'),
        '/notificacoes': landingPage('src/pages/notifications/NotificationsPage.tsx'),
      },
    }),
    precompress(),
  ],
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
    proxy: apiProxy,
  },
  preview: { port: 4173, proxy: apiProxy },
});
