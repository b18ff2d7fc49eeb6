import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/** A test file that imports `support/process.ts`: it starts server processes of its own. */
const STARTS_PROCESSES = /from '(\.\.?\/)+support\/process'/;

/**
 * The test files that start server processes (relative to apps/server, as vitest's `include`
 * reads them): on PostgreSQL they run one at a time (vitest.config.ts), and `runServer` refuses
 * to start a process on PostgreSQL in any other file.
 */
export const processFiles: string[] = readdirSync(`${serverDir}test`, { recursive: true })
  .map((entry) => `test/${String(entry)}`)
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => STARTS_PROCESSES.test(readFileSync(`${serverDir}${file}`, 'utf8')))
  .sort();
