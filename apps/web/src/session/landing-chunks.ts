/*
 * The files a returning student's first page needs, by address, as index.html lists them (a JSON
 * data block written by the build: build/early-script.ts), for the page's first script to start
 * downloading (session/early.ts).
 */

export const LANDING_CHUNKS_ID = 'campus-landing-chunks';

/** Starts downloading the code of the page at `path`, as the build listed it (nothing in dev). */
export function preloadLandingCode(path: string) {
  if (document.readyState === 'loading') {
    // The list is further down the page than this script.
    document.addEventListener('DOMContentLoaded', () => preloadLandingCode(path), { once: true });
    return;
  }
  const listed = document.getElementById(LANDING_CHUNKS_ID)?.textContent;
  const files = listed ? ((JSON.parse(listed) as Record<string, string[]>)[path] ?? []) : [];
  for (const href of files) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
}
