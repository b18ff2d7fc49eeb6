/**
 * Shared pieces of the benchmark: dedicated PostgreSQL databases, server processes (the built
 * server in production mode, and the baselines), and autocannon loads whose every answer is
 * checked, measured in interleaved rounds so that a ratio compares like with like.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
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
 * The built server (apps/server/dist/main.js) in production mode: no rate limits, warnings and
 * errors logged only.
 */
export async function startServer(
  name: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<Service> {
  const service = await startProcess(name, [...nodeOptions, 'apps/server/dist/main.js'], {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    RATE_LIMIT: 'off',
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

/** Resident memory of a process in MB, read from /proc (Linux). */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** User + system CPU time of a process in ms, from /proc (Linux; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time (ms) of the PostgreSQL backends connected to `database`, found by process title. */
function backendsCpuMs(database: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `))
        total += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** CPU time used by a service and its database backends from now until the returned function is called. */
function cpuWatch(service: Service) {
  const start = {
    server: cpuMs(service.pid),
    db: service.database ? backendsCpuMs(service.database) : 0,
  };
  return () => ({
    server: cpuMs(service.pid) - start.server,
    db: service.database ? backendsCpuMs(service.database) - start.db : 0,
  });
}

/** Samples a process's RSS every 250 ms until stopped; returns the largest value seen. */
function rssWatch(pid: number) {
  let max = rssMb(pid);
  const timer = setInterval(() => (max = Math.max(max, rssMb(pid))), 250);
  return () => {
    clearInterval(timer);
    return Math.max(max, rssMb(pid));
  };
}

/** One kind of request sent by autocannon, and how to recognise a right answer. */
export interface Load {
  name: string;
  service: Service;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** A fixed rate (requests/s over all connections) instead of as fast as possible. */
  overallRate?: number;
  expectStatus?: number;
  /** Another status, or a body for which this is false, is a wrong answer. */
  check?: (body: string) => boolean;
}

export interface RunResult {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  wrongAnswers: number;
  /** Largest resident memory of the serving process during the runs, MB. */
  rssMb: number;
  seconds: number;
  /**
   * CPU time per request (µs) of the serving process and of its PostgreSQL backends: what a
   * request costs, less sensitive than req/s to what else runs on the machine. Undefined when
   * several loads ran at the same time on one process.
   */
  serverCpuUs?: number;
  dbCpuUs?: number;
}

type RawResult = Record<string, unknown> & {
  totalCompletedRequests: number;
  duration: number;
  errors: number;
  timeouts: number;
};

/** One autocannon run of `seconds`; the raw result (histograms unmerged) and the wrong answers. */
async function fire(load: Load, seconds: number): Promise<{ raw: RawResult; wrong: number }> {
  const { expectStatus = 200, check } = load;
  let wrong = 0;
  const raw = (await autocannon({
    url: load.service.url,
    connections: load.connections ?? 32,
    duration: seconds,
    ...(load.overallRate ? { overallRate: load.overallRate } : {}),
    skipAggregateResult: true,
    requests: [
      {
        method: load.method ?? 'GET',
        path: load.path,
        headers: { 'content-type': 'application/json', ...load.headers },
        ...(load.body ? { body: load.body } : {}),
        onResponse: (status: number, body: string) => {
          if (status !== expectStatus || (check && !check(body))) wrong++;
        },
      },
    ],
  } as autocannon.Options)) as unknown as RawResult;
  return { raw, wrong };
}

function summarise(
  load: Load,
  raws: RawResult[],
  wrong: number,
  rss: number,
  cpu?: { server: number; db: number },
): RunResult {
  // Typed by @types/autocannon 7 without it; present in autocannon 8.
  const { aggregateResult } = autocannon as unknown as {
    aggregateResult(
      results: RawResult[],
      opts: { url: string },
    ): { latency: { p50: number; p99: number } };
  };
  const merged = aggregateResult(raws, { url: load.service.url });
  const requests = raws.reduce((n, r) => n + r.totalCompletedRequests, 0);
  const seconds = raws.reduce((n, r) => n + r.duration, 0);
  return {
    name: load.name,
    requestsPerSec: requests / seconds,
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    requests,
    errors: raws.reduce((n, r) => n + r.errors + r.timeouts, 0),
    wrongAnswers: wrong,
    rssMb: rss,
    seconds,
    ...(cpu && requests
      ? { serverCpuUs: (cpu.server * 1000) / requests, dbCpuUs: (cpu.db * 1000) / requests }
      : {}),
  };
}

/**
 * Measures loads against each other: a warm-up of each, then `rounds` rounds in which every step
 * runs for `seconds`, in alternating order, so that a change of the machine's load (other people
 * run tests on it) falls on all of them alike. A step is one load, or several loads sent at the
 * same time (e.g. a cheap endpoint while logins run). Latencies of all rounds are merged per load.
 */
export async function compare(
  steps: (Load | Load[])[],
  options: { rounds: number; seconds: number; warmup: number },
): Promise<RunResult[]> {
  const groups = steps.map((step) => (Array.isArray(step) ? step : [step]));
  const loads = groups.flat();
  if (options.warmup > 0) {
    for (const group of groups) await Promise.all(group.map((load) => fire(load, options.warmup)));
  }
  const raws = new Map<Load, RawResult[]>(loads.map((l) => [l, []]));
  const wrong = new Map<Load, number>(loads.map((l) => [l, 0]));
  const rss = new Map<Load, number>(loads.map((l) => [l, 0]));
  // CPU is attributed to a load only when it ran alone on its process.
  const cpu = new Map<Load, { server: number; db: number }>(
    groups.filter((g) => g.length === 1).map(([l]) => [l!, { server: 0, db: 0 }]),
  );
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? groups : [...groups].reverse();
    for (const group of order) {
      const stops = group.map((load) => rssWatch(load.service.pid));
      const cpuStop = group.length === 1 ? cpuWatch(group[0]!.service) : undefined;
      const fired = await Promise.all(group.map((load) => fire(load, options.seconds)));
      if (cpuStop) {
        const used = cpuStop();
        const sum = cpu.get(group[0]!)!;
        sum.server += used.server;
        sum.db += used.db;
      }
      group.forEach((load, i) => {
        rss.set(load, Math.max(rss.get(load)!, stops[i]!()));
        raws.get(load)!.push(fired[i]!.raw);
        wrong.set(load, wrong.get(load)! + fired[i]!.wrong);
      });
    }
  }
  const results = loads.map((l) =>
    summarise(l, raws.get(l)!, wrong.get(l)!, rss.get(l)!, cpu.get(l)),
  );
  for (const r of results) {
    const cpuNote =
      r.serverCpuUs === undefined
        ? ''
        : `, CPU/request ${r.serverCpuUs.toFixed(0)} µs + db ${r.dbCpuUs!.toFixed(0)} µs`;
    log(
      `${r.name}: ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
        `errors ${r.errors}, wrong ${r.wrongAnswers}, RSS ${r.rssMb.toFixed(0)} MB${cpuNote}`,
    );
  }
  return results;
}

/** JSON.parse that answers undefined instead of throwing (a check must not crash the run). */
export function parse<T>(body: string): T | undefined {
  try {
    return JSON.parse(body) as T;
  } catch {
    return undefined;
  }
}
