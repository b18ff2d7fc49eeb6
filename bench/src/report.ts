/** bench/results/<name>.md and .json from one run. */
import { writeFileSync } from 'node:fs';
import type { ContentionResult } from './match-subscribe';
import type { Ratio } from './ratios';
import { BENCH_DIR } from './support';
import { type RunResult } from './measure';

export interface Report {
  mode: 'full' | 'quick';
  date: string;
  commit: string;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    loadBefore: number[];
    loadAfter: number[];
  };
  scale: Record<string, number>;
  seconds: { total: number; seeding: number };
  serverIdleRssMb: number;
  results: RunResult[];
  ratios: Ratio[];
  contention?: ContentionResult;
}

const int = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');

export function markdown(r: Report): string {
  const s = r.scale;
  const lines = [
    `# Benchmark results (${r.mode} run)`,
    '',
    `${r.date.slice(0, 16).replace('T', ' ')} UTC, commit ${r.commit}; ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}; ` +
      `load average ${loads(r.machine.loadBefore)} before, ${loads(r.machine.loadAfter)} after (the machine is shared: ratios within one run are what count).`,
    '',
    `Seeds: ${int(s.users!)} users; ${int(s.smallPosts!)} and ${int(s.largePosts!)} posts; ${int(s.matches!)} matches. ` +
      `Server: production build, NODE_ENV=production, RATE_LIMIT=off, LOG_LEVEL=warn, ${s.poolMax} PostgreSQL connections per process ` +
      `(the hand-written handler too). autocannon, ${s.connections} connections unless said; after a ${s.warmup} s warm-up, ` +
      `${s.rounds} round(s) of ${s.seconds} s per scenario, interleaved with the scenario's reference. ` +
      `Run time ${r.seconds.total.toFixed(0)} s (seeding ${r.seconds.seeding.toFixed(0)} s).`,
    '',
    '## Targets',
    '',
    '| target | measured | goal | met | detail |',
    '|---|---:|---:|:---:|---|',
    ...r.ratios.map(
      (x) =>
        `| ${x.target} | ${x.value.toFixed(2)} | ${x.goal} | ${x.met ? 'yes' : '**no**'} | ${x.detail} |`,
    ),
    '',
    '## Scenarios',
    '',
    '| scenario | req/s | p50 ms | p99 ms | requests | errors | wrong answers | server RSS MB | CPU µs/req (server + db) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.results.map(
      (x) =>
        `| ${x.name} | ${int(x.requestsPerSec)} | ${ms(x.p50)} | ${ms(x.p99)} | ${int(x.requests)} | ${x.errors} | ${x.wrongAnswers} | ${x.rssMb.toFixed(0)} | ` +
        `${x.serverCpuUs === undefined ? '' : `${int(x.serverCpuUs)} + ${int(x.dbCpuUs!)}`} |`,
    ),
    '',
    `Server RSS after start, idle: ${r.serverIdleRssMb.toFixed(0)} MB. RSS is the largest value sampled (every 250 ms) in the process that served the scenario. ` +
      'CPU µs/req: CPU time of the serving process, and of the PostgreSQL backends of its database, divided by the requests answered ' +
      '(what a request costs, steadier than req/s on a shared machine).',
  ];
  const c = r.contention;
  if (c) {
    lines.push(
      '',
      `## Subscribe contention: ${c.users} users at once on one match (maxPlayers ${c.maxPlayers}), two server processes`,
      '',
      '| round | requests | wall ms | p50 ms | p99 ms | max ms | outcomes |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...c.rounds.map(({ name, burst: b }) => {
        const outcomes = [...b.byOutcome].map(([k, n]) => `${k} × ${n}`).join(', ');
        return `| ${name} | ${b.answers.length} | ${b.wallMs.toFixed(0)} | ${b.p50.toFixed(0)} | ${b.p99.toFixed(0)} | ${b.max.toFixed(0)} | ${outcomes} |`;
      }),
      '',
      '| invariant (checked in SQL) | holds |',
      '|---|:---:|',
      ...c.invariants.map(([name, ok]) => `| ${name} | ${ok ? 'yes' : '**NO**'} |`),
      '',
      '| answers | as expected |',
      '|---|:---:|',
      ...c.answers.map(([name, ok]) => `| ${name} | ${ok ? 'yes' : '**NO**'} |`),
      '',
      `Teams: A ${c.teams.a}, B ${c.teams.b}.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Writes <name>.md and <name>.json under bench/results; returns the .md path. */
export function writeReport(report: Report, name: string): string {
  const base = `${BENCH_DIR}results/${name}`;
  const { contention, ...rest } = report;
  const json = {
    ...rest,
    ...(contention
      ? {
          contention: {
            ...contention,
            rounds: contention.rounds.map(({ name: n, burst: b }) => ({
              name: n,
              requests: b.answers.length,
              wallMs: b.wallMs,
              p50: b.p50,
              p99: b.p99,
              max: b.max,
              outcomes: Object.fromEntries(b.byOutcome),
            })),
          },
        }
      : {}),
  };
  writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdown(report));
  return `${base}.md`;
}
