import { lazy } from 'react';

/** The data layer (session/DataLayer.tsx), loaded apart from the first page. */
const load = () => import('./DataLayer');
export const DataLayer = lazy(load);

/**
 * Fetches it ahead, once the first page has loaded and painted (when the browser is idle), so a
 * page that needs it does not wait, and the first paint does not wait for it either.
 */
export function preloadDataLayer() {
  const start = () => void load();
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? window.requestIdleCallback(start, { timeout: 3_000 })
      : setTimeout(start, 1_000);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
