import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { hasChromium, MISSING_CHROMIUM } from './support/chromium';
import { ADMIN, freePort, startE2eServer } from './support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: { skip: true } | { skip: false; baseUrl: string; admin: typeof ADMIN; smtpPort: number };
  }
}

/** Set to 1 to let the browser tests skip (loudly) on a machine without Chromium; never in CI. */
export const SKIP_ENV = 'WEB_E2E_SKIP_WITHOUT_CHROMIUM';

/**
 * Once for all browser tests: build the web app, start the server that serves it. Without
 * Chromium they fail, with how to install it; they skip only when SKIP_ENV says so outside CI.
 */
export default async function setup(project: TestProject) {
  if (!hasChromium()) {
    const allowed = process.env[SKIP_ENV] === '1' && !process.env.CI;
    if (!allowed)
      throw new Error(`${MISSING_CHROMIUM} (Or set ${SKIP_ENV}=1 to skip them outside CI.)`);
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n! ${MISSING_CHROMIUM}\n! ${SKIP_ENV}=1: SKIPPING EVERY BROWSER TEST.\n${line}\n`,
    );
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
  const smtpPort = await freePort();
  const server = await startE2eServer(smtpPort);
  project.provide('e2e', { skip: false, baseUrl: server.baseUrl, admin: ADMIN, smtpPort });
  return () => server.stop();
}
