import { navigate } from '../lib/router';

/**
 * Registers /sw.js (public/sw.js: the app shell, pushed notifications) in a production build,
 * and follows its "open this page" messages (a tapped notification while a tab is open) with the
 * router, without a reload.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as { type?: string; url?: string } | null;
    if (message?.type === 'campus:open' && message.url?.startsWith('/')) navigate(message.url);
  });
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // No service worker (private mode, an old browser): the app works without it.
    });
  });
}
