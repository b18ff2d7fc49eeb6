import { lazy } from 'react';

/** The data layer (session/DataLayer.tsx), loaded apart from the first page. */
const load = () => import('./DataLayer');
export const DataLayer = lazy(load);

/** Fetches it ahead, once the first page has loaded, so a page that needs it does not wait. */
export function preloadDataLayer() {
  const start = () => void load();
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
