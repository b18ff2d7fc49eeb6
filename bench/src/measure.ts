/**
 * Measuring a load: autocannon runs whose every answer is checked, interleaved with a reference
 * in rounds so that a ratio compares like with like, with the CPU and memory of the processes
 * (and of their PostgreSQL backends) sampled from /proc.
 */
import { readFileSync, readdirSync } from 'node:fs';
import autocannon from 'autocannon';
import { log, type Service } from './support';

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
