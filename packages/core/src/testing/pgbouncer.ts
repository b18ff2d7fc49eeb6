import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's pgbouncer binary (apt-get install pgbouncer), or undefined when absent. */
export const pgbouncerBinary = (() => {
  try {
    return (
      execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
})();

/** A port the OS just handed out (closed again for pgbouncer to take). */
async function osPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * PgBouncer in transaction mode in front of the PostgreSQL server of `serverUrl` (any database
 * name is forwarded), on a free port, with a generated ini; `stop()` ends it and removes its
 * files. It refuses to run as root, so under root it switches to the `postgres` user (`-u`).
 */
export async function startPgbouncer(serverUrl: string, { poolSize = 20 } = {}) {
  if (!pgbouncerBinary) throw new Error('pgbouncer is not installed (apt-get install pgbouncer)');
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const dir = mkdtempSync(join(tmpdir(), 'campus-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await osPort();
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" "${decodeURIComponent(server.password)}"\n`);
  const ini = [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    // The pooler trusts its clients here and logs in with the password of the userlist.
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    'pool_mode = transaction',
    'max_client_conn = 2000',
    `default_pool_size = ${poolSize}`,
    'max_db_connections = 0',
    `admin_users = ${user}`,
    'server_reset_query =',
  ].join('\n');
  writeFileSync(join(dir, 'pgbouncer.ini'), `${ini}\n`);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(
    pgbouncerBinary,
    [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await waitUntilUp(
    () => child.exitCode !== null,
    () => output,
  );
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    /** The pooler's address, with the path (database) of `serverUrl`. */
    url: url.toString(),
    port,
    output: () => output,
    async stop() {
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits for pgbouncer's own "process up" line (it listens before writing it). */
async function waitUntilUp(gone: () => boolean, output: () => string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (output().includes('process up')) return;
    if (gone()) throw new Error(`pgbouncer exited:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pgbouncer did not start:\n${output()}`);
}
