import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { hasChromium, MISSING_CHROMIUM } from './support/chromium';
import { ADMIN, startE2eServer } from './support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: { skip: true } | { skip: false; baseUrl: string; admin: typeof ADMIN };
  }
}

/**
 * Once for all browser tests: build the web app, start the server that serves it. Without
 * Chromium the tests fail in CI and are skipped (with a warning) elsewhere.
 */
export default async function setup(project: TestProject) {
  if (!hasChromium()) {
    if (process.env.CI) throw new Error(MISSING_CHROMIUM);
    console.warn(`\n⚠ ${MISSING_CHROMIUM} Skipping the browser tests.\n`);
    project.provide('e2e', { skip: true });
    return;
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // vitest runs with NODE_ENV=test, which would make Vite build React's development version.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: `${root}/vite.config.ts`, logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const server = await startE2eServer();
  project.provide('e2e', { skip: false, baseUrl: server.baseUrl, admin: ADMIN });
  return () => server.stop();
}
