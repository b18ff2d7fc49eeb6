import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { onTestFinished } from 'vitest';

/*
 * axe-core on every page state the browser tests visit: each address a page lands on (full
 * loads and in-app navigations alike), each screenshot, and the last state when the test ends.
 * A test with any violation fails, listing them. `newPage` (browser.ts) arms it for every page.
 */

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

interface Violation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe on the page as it is now; its violations as readable lines (empty: none). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Settle first: the page's heading is there and nothing is loading. A state that does not
  // settle (a redirect, a page still arriving on a slow machine) passes on: it is not one a
  // person stops at, and the state it leads to is checked in turn.
  const settled = await page
    .waitForFunction(
      () =>
        !!document.querySelector('main h1') &&
        !document.querySelector('main')?.textContent?.includes('Carregando…'),
      null,
      { timeout: 5_000 },
    )
    .then(
      () => true,
      () => false,
    );
  if (!settled) return [];
  // Evaluated through the DevTools protocol: the page's CSP does not apply to it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // A run takes a while; the test goes on meanwhile and may change the page under it (a click
  // that navigates, a live update). Results are kept only for a page that stood still through
  // the run: a few tries, then the state passes on like one that never settles.
  for (let attempt = 0; attempt < 3; attempt++) {
    const violations = await page.evaluate(async () => {
      const { axe } = window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
      };
      let changed = false;
      const observer = new MutationObserver(() => (changed = true));
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      const start = location.href;
      const results = await axe.run(document, { resultTypes: ['violations'] });
      // Records not yet delivered to the callback count too.
      if (observer.takeRecords().length > 0) changed = true;
      observer.disconnect();
      if (changed || location.href !== start) return null;
      return results.violations.map(({ id, help, nodes }) => ({
        id,
        help,
        nodes: nodes.map(({ target }) => ({ target })),
      }));
    });
    if (violations) return asLines(page, violations);
  }
  return [];
}

function asLines(page: Page, violations: Violation[]): string[] {
  const where = new URL(page.url()).pathname;
  return violations.map(
    (v) =>
      `${where}: ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
  );
}

const watched = new WeakMap<Page, () => Promise<void>>();

/** Checks the state `page` is in now (e.g. before a screenshot), when it is watched. */
export const checkAccessibility = (page: Page) => watched.get(page)?.() ?? Promise.resolve();

/** Checks every state `page` visits from now on, and fails the current test on a violation. */
export function watchAccessibility(page: Page) {
  const found = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  const check = () => {
    queue = queue
      .then(async () => {
        if (page.isClosed() || !page.url().startsWith('http')) return;
        for (const line of await axeViolations(page)) found.add(line);
      })
      // A page closed or navigated away mid-run: that state is gone, the next one is checked.
      .catch(() => {});
    return queue;
  };
  watched.set(page, check);
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) void check();
  });
  try {
    onTestFinished(async () => {
      await check();
      if (found.size > 0)
        throw new Error(`axe-core found accessibility violations:\n${[...found].join('\n')}`);
    });
  } catch {
    // Outside a test (a beforeAll): no test to fail; its pages are not set up to be checked.
  }
}
