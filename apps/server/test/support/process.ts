import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { signAccessToken } from '@campus/core';
import { throughPoolerOf } from '@campus/core/testing';
import { pgBin } from './machine';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));
export const PROCESS_JWT_SECRET = 'process-test-secret-process-test-secret-00';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * A port for a server process: random, below Linux's ephemeral range (32768–60999), where the
 * suite's own client connections and its servers on port 0 take theirs. A port in that range
 * could already be an outgoing connection's local port, and the child would exit EADDRINUSE.
 */
export const freePort = () => 20_000 + Math.floor(Math.random() * 12_000);

/**
 * Children still running when the test process ends are killed with it: a test that timed out
 * goes on in the background and never reaches its cleanup, and its servers would outlive the run,
 * taking CPU from every suite after it. Vitest ends a test file's process with SIGTERM, which
 * would skip 'exit' handlers: the process exits from its own handler instead.
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
process.once('SIGTERM', () => process.exit(143));

/**
 * The server from source (tsx) in a child process, as an operator starts it. On PostgreSQL only
 * in the files of the `postgres-processes` project, which run one at a time: the files that
 * import this module (test/support/process-files.ts).
 */
export function runServer(env: Record<string, string>): ServerProcess {
  if (process.env.TEST_BACKEND === 'postgres' && process.env.TEST_PROCESSES !== '1')
    throw new Error(
      'runServer on PostgreSQL: import it from test/support/process in the test file itself, so that the file runs in the postgres-processes project (one file at a time)',
    );
  const port = Number(env.PORT ?? freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      JWT_SECRET: PROCESS_JWT_SECRET,
      RATE_LIMIT: 'off',
      // No readiness pause before closing, unless a test asks for one (test/ops/shutdown.test.ts).
      SHUTDOWN_DELAY: '0',
      ...env,
      ...pooledDatabase(env),
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, port, url: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/**
 * DATABASE_URL through TEST_DATABASE_POOLER_URL when set, unless the test sets DATABASE_DIRECT_URL
 * itself (empty: straight to PostgreSQL, no pooler).
 */
function pooledDatabase(env: Record<string, string>): Record<string, string> {
  if (!env.DATABASE_URL || 'DATABASE_DIRECT_URL' in env) return {};
  const { url, directUrl } = throughPoolerOf(env.DATABASE_URL, process.env);
  return directUrl ? { DATABASE_URL: url, DATABASE_DIRECT_URL: directUrl } : {};
}

/** A JSON request to a server process: the status and the parsed body (`{}` when empty). */
export async function callJson<Body = Record<string, unknown>>(
  server: ServerProcess,
  method: string,
  path: string,
  headers: object,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Body };
}

/** A server process that exited while a test waited for it: no point waiting on. */
class ServerExited extends Error {}

export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      if (error instanceof ServerExited) throw new Error(`${what}: ${error.message}`);
      // not yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const isReady = async (server: ServerProcess) => {
  const { exitCode, signalCode } = server.child;
  if (exitCode !== null || signalCode !== null) {
    throw new ServerExited(
      `the process on port ${server.port} exited (${exitCode ?? signalCode}):\n${server.output()}`,
    );
  }
  return (await fetch(`${server.url}/ready`)).status === 200;
};

/**
 * `count` server processes on one database, started at the same instant and each waited for
 * until ready (its output in the error otherwise). On a failure the started ones are killed.
 */
export async function readyServers(
  count: number,
  env: Record<string, string>,
  timeoutMs = 150_000,
) {
  const servers = Array.from({ length: count }, () => runServer(env));
  try {
    await Promise.all(
      servers.map((server, i) =>
        waitFor(() => isReady(server), timeoutMs, `process ${i + 1} ready`).catch((error) => {
          throw new Error(`${(error as Error).message}:\n${server.output()}`);
        }),
      ),
    );
    return servers;
  } catch (error) {
    await killServers(servers);
    throw error;
  }
}

/** SIGKILL, and waits until each has exited. */
export async function killServers(servers: (ServerProcess | undefined)[]) {
  for (const server of servers) server?.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server?.exited));
}

/** A scratch database with `count` ready processes on it for `run`; all removed after, whatever happens. */
export async function withProcesses(
  count: number,
  run: (servers: ServerProcess[], database: { url: string }) => Promise<void>,
  env: Record<string, string> = {},
) {
  const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
  let servers: ServerProcess[] = [];
  try {
    servers = await readyServers(count, { ...env, DATABASE_URL: database.url });
    await run(servers, database);
  } finally {
    await killServers(servers);
    await database.drop();
  }
}

/** A new database on the server at `baseUrl`; `drop()` removes it. */
export async function scratchDatabase(baseUrl: string) {
  const name = `campus_proc_${randomBytes(5).toString('hex')}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A user row and an access token signed with the child servers' secret. */
export async function seedUser(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const [user] = await sql<{ id: string; perfil: 'ALUNO'; nickname: string }[]>`
    insert into users (nome, nickname, email, password_hash)
    values ('Carga', ${`load_${randomBytes(4).toString('hex')}`}, ${`load_${randomBytes(4).toString('hex')}@campus.test`}, 'scrypt$x')
    returning id, perfil, nickname`;
  await sql.end();
  const token = signAccessToken(
    {
      jwtSecret: PROCESS_JWT_SECRET,
      accessTokenTtl: 3600,
      refreshTokenTtl: 3600,
      passwordCost: 10,
    },
    user!,
  );
  return { id: user!.id, nickname: user!.nickname, auth: { Authorization: `Bearer ${token}` } };
}

/**
 * A PostgreSQL server of the test's own (initdb into a temp dir, run as the postgres user), so a
 * test can stop and start it without touching the server other suites use.
 */
export function privateCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'campus-pg-'));
  chownSync(
    dir,
    Number(execFileSync('id', ['-u', 'postgres']).toString()),
    Number(execFileSync('id', ['-g', 'postgres']).toString()),
  );
  const data = join(dir, 'data');
  const port = freePort();
  const asPostgres = (cmd: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', join(pgBin!, cmd), ...args], {
      stdio: 'pipe',
    });
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const start = () =>
    asPostgres('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c fsync=off`,
      'start',
    ]);
  const stop = () => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
