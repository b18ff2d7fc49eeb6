/**
 * Runs a command with a transaction-mode PgBouncer in front of TEST_DATABASE_URL's server and
 * TEST_DATABASE_POOLER_URL pointing at it, so every suite runs as a server behind a pooler:
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     node --import tsx apps/server/test/support/with-pgbouncer.ts -- npx pnpm@10.34.8 test
 *
 * (from apps/server: `node --import tsx test/support/with-pgbouncer.ts -- …`). Exits with the
 * command's code; pgbouncer stops either way.
 */
import { spawn } from 'node:child_process';
import { startPgbouncer } from '@campus/core/testing';

const serverUrl = process.env.TEST_DATABASE_URL;
const separator = process.argv.indexOf('--');
const command = separator >= 0 ? process.argv.slice(separator + 1) : [];
if (!serverUrl || command.length === 0) {
  console.error('usage: TEST_DATABASE_URL=… with-pgbouncer.ts -- <command> [args…]');
  process.exit(2);
}

const pooler = await startPgbouncer(serverUrl, { poolSize: 40 });
console.error(`pgbouncer (transaction mode) on ${pooler.url}`);
const child = spawn(command[0]!, command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_POOLER_URL: pooler.url },
});
const forward = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
const code = await new Promise<number>((resolve) =>
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
);
await pooler.stop();
process.exit(code);
