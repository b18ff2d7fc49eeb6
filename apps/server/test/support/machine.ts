import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What this machine offers the tests beyond Node (read by vitest.config.ts for its tags). */

/** The newest PostgreSQL server binaries of Debian's packages, if installed. */
export const pgBin = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  return version ? join(root, version, 'bin') : undefined;
})();

const succeeds = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** True when a private PostgreSQL cluster can be started here (binaries and a postgres user). */
export const canRunPrivateCluster =
  Boolean(pgBin) && process.getuid?.() === 0 && succeeds('id', ['postgres']);

/** The command that runs Compose here (`docker compose` or `docker-compose`), if any. */
export const composeCommand: string[] | undefined = succeeds('docker', ['compose', 'version'])
  ? ['docker', 'compose']
  : succeeds('docker-compose', ['version'])
    ? ['docker-compose']
    : undefined;

/** Debian's pgbouncer (apt-get install pgbouncer), for the tests of a transaction-mode pooler. */
export const pgbouncerInstalled = succeeds('sh', ['-c', 'command -v pgbouncer']);

/** A redis-server binary, for tests that start a Redis of their own. */
export const redisServerInstalled = succeeds('redis-server', ['--version']);
