/**
 * Shared pieces of the benchmark: dedicated PostgreSQL databases, server processes (the built
 * server in production mode, and the baselines), and autocannon loads whose every answer is
 * checked, measured in interleaved rounds so that a ratio compares like with like.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0000';

export function log(message: string) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A URL on the benchmark's PostgreSQL server for database `name`. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates (or recreates) a database of its own for the benchmark and returns its URL. */
export async function freshDatabase(name: string): Promise<string> {
  await dropDatabase(name);
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}

/** A port nobody listens on now (other benchmarks and test runs may share the machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A process serving HTTP on 127.0.0.1:port, started by the benchmark. */
export interface Service {
  name: string;
  url: string;
  child: ChildProcess;
  pid: number;
  /** The database its PostgreSQL backends are connected to, for their CPU time. */
  database?: string;
}

const children = new Set<ChildProcess>();
// A failed run must not leave servers holding ports and database connections.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Spawns `node <args>` and waits until GET `readyPath` answers 200. */
export async function startProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; readyPath?: string } = {},
): Promise<Service> {
  const port = await freePort();
  // Logs go to a file: the servers log every 4xx at warn (the contention round has 900 of them).
  mkdirSync(`${BENCH_DIR}results`, { recursive: true });
  const logFile = openSync(`${BENCH_DIR}results/servers.log`, 'a');
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', logFile, logFile],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}${options.readyPath ?? '/ready'}`)).ok) {
        return { name, url, child, pid: child.pid! };
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not become ready`);
}

/**
 * The Node flags the container starts the server with: the options between `node` and the script
 * in docker/Dockerfile's `CMD ["node", …, "dist/main.js"]`, so that the server measured here runs
 * as it does in production.
 */
export function productionNodeFlags(): string[] {
  const dockerfile = readFileSync(`${ROOT}docker/Dockerfile`, 'utf8');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
  const args = cmd ? (JSON.parse(cmd[1]!) as string[]) : [];
  if (args[0] !== 'node' || args.at(-1) !== 'dist/main.js')
    throw new Error('docker/Dockerfile: expected CMD ["node", …flags, "dist/main.js"]');
  return args.slice(1, -1);
}

/** With BENCH_CPU_PROF=1, the flags that make a server write a .cpuprofile into results/profiles. */
export const profileFlags = (): string[] =>
  process.env.BENCH_CPU_PROF === '1'
    ? ['--cpu-prof', `--cpu-prof-dir=${BENCH_DIR}results/profiles`]
    : [];

/**
 * The built server (apps/server/dist/main.js) in production mode, started with the container's
 * Node flags: no rate limits, warnings and errors logged only.
 */
export async function startServer(
  name: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<Service> {
  const args = [...productionNodeFlags(), ...nodeOptions, 'apps/server/dist/main.js'];
  const service = await startProcess(name, args, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    RATE_LIMIT: 'off',
    // Stopped between groups: no readiness pause before draining.
    SHUTDOWN_DELAY: '0',
    ...env,
  });
  const database = env.DATABASE_URL ? new URL(env.DATABASE_URL).pathname.slice(1) : undefined;
  return { ...service, ...(database ? { database } : {}) };
}

/** SIGTERM, and wait for the exit (the server drains its requests first). */
export function stopProcess(service: Service): Promise<void> {
  const { child } = service;
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
