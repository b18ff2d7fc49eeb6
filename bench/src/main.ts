/**
 * `pnpm bench` (or `pnpm bench:quick`): seeds dedicated PostgreSQL databases, builds and starts
 * the server in production mode beside its baselines, runs every scenario of issue 7 with
 * autocannon (every answer checked), and writes bench/results/latest.{md,json}
 * (quick.{md,json} for the quick run, partial.{md,json} for an --only run).
 *
 * Options: --quick (small seeds, short rounds), --only=lists,post,static,login,others,groups,contention,fanout,feed-reader,media; --full-rounds (with --quick)
 * Environment: BENCH_DATABASE_URL (a PostgreSQL superuser URL; default postgres://postgres@
 * 127.0.0.1:5432/test), BENCH_POOL_MAX (connections per process, server and handler alike),
 * SKIP_BUILD=1 (reuse apps/server/dist), BENCH_REUSE_DB=1 (keep and reuse the seeded databases),
 * BENCH_CPU_PROF=1 (the main server and the photos' server write a .cpuprofile into
 * bench/results/profiles).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { hashPassword } from '@campus/core';
import { pgbouncerBinary, startPgbouncer } from '@campus/core/testing';
import postgres from 'postgres';
import { contentionRatio, runContention } from './contention';
import type { ContentionResult } from './match-subscribe';
import {
  DB,
  ONLY,
  PASSWORD,
  POOL_MAX,
  QUICK,
  REUSE,
  scale,
  timing,
  tokenOf,
  wants,
} from './options';
import { atMost, logRatios, type Ratio } from './ratios';
import { writeReport, type Report } from './report';
import { feedPages, loginLoad, loginMemory, others, postRead } from './scenarios';
import { migrate, seedDatabase } from './seeding';
import { staticList } from './static-list';
import { groupLists } from './groups';
import { fanoutRatios, runFanout } from './fanout';
import { feedReader } from './feed-reader';
import { listCursors } from './cursors';
import { mediaBench } from './media';
import {
  BENCH_DIR,
  JWT_SECRET,
  ROOT,
  dropDatabase,
  log,
  profileFlags,
  startProcess,
  startServer,
  stopProcess,
  type Service,
} from './support';
import { rssMb, type RunResult } from './measure';
/**
 * The server as deployed behind Debian's PgBouncer in transaction mode (queries pooled, sessions
 * direct), when pgbouncer is installed; undefined otherwise (the row is left out).
 */
async function pooledServer(directUrl: string) {
  if (!pgbouncerBinary) {
    log('pgbouncer not installed: no pooled row');
    return undefined;
  }
  const pooler = await startPgbouncer(directUrl, { poolSize: Number(POOL_MAX) });
  const server = await startServer('server (through pgbouncer)', {
    DATABASE_URL: pooler.url,
    DATABASE_DIRECT_URL: directUrl,
    DATABASE_POOL_MAX: POOL_MAX,
  });
  return {
    server,
    async stop() {
      await stopProcess(server);
      await pooler.stop();
    },
  };
}

async function main() {
  const started = Date.now();
  writeFileSync(`${BENCH_DIR}results/servers.log`, '');
  const loadBefore = os.loadavg();
  log(
    `${QUICK ? 'quick' : 'full'} run; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores`,
  );
  if (!process.env.SKIP_BUILD) {
    log('building the server');
    execFileSync('pnpm', ['--filter', '@campus/server', 'build'], { cwd: ROOT, stdio: 'ignore' });
  }

  // One hash at the production cost (PASSWORD_HASH_COST default 17) shared by every user.
  const passwordHash = await hashPassword(PASSWORD, 17);
  const large = await seedDatabase(DB.large, scale.largePosts, true, passwordHash);
  const small = wants('lists')
    ? await seedDatabase(DB.small, scale.smallPosts, false, passwordHash)
    : undefined;
  const seededAt = Date.now();

  const serverEnv = { DATABASE_URL: large.url, DATABASE_POOL_MAX: POOL_MAX };
  const server = await startServer('server', serverEnv, profileFlags());
  const idleRss = rssMb(server.pid);
  const idle = atMost('idle RSS of the server, MB', idleRss, 150, 'after start, before any load');
  logRatios([idle]);
  const bench = postgres(large.url, { max: 2, onnotice: () => {} });
  const auth = `Bearer ${tokenOf(large.users[0]!)}`;
  const results: RunResult[] = [];
  const ratios: Ratio[] = [idle];
  let contention: ContentionResult | undefined;
  const baseline = async (kind: string, env: Record<string, string> = {}): Promise<Service> => ({
    ...(await startProcess(kind, ['--import', 'tsx', 'src/baselines.ts', kind], env, {
      cwd: BENCH_DIR,
    })),
    ...(env.DATABASE_URL ? { database: DB.large } : {}),
  });
  const collect = (out: { results: RunResult[]; ratios: Ratio[] }) => {
    results.push(...out.results);
    ratios.push(...out.ratios);
    logRatios(out.ratios);
  };

  try {
    if (small) {
      const smallServer = await startServer('server (small database)', {
        DATABASE_URL: small.url,
        DATABASE_POOL_MAX: POOL_MAX,
      });
      try {
        // Each database has its own users: a token of the other one would be a 401.
        const smallAuth = `Bearer ${tokenOf(small.users[0]!)}`;
        collect(
          await feedPages(
            { service: smallServer, posts: small.posts, auth: smallAuth },
            { service: server, posts: large.posts, auth },
            timing,
          ),
        );
      } finally {
        await stopProcess(smallServer);
      }
    }
    if (wants('lists'))
      collect(await listCursors({ server, url: large.url, auth, posts: large.posts, timing }));
    if (wants('post')) {
      const handler = await baseline('express-post', {
        DATABASE_URL: large.url,
        DATABASE_POOL_MAX: POOL_MAX,
        JWT_SECRET,
      });
      const pooled = await pooledServer(large.url);
      try {
        collect(await postRead(server, handler, large.postId!, auth, timing, pooled?.server));
      } finally {
        await stopProcess(handler);
        await pooled?.stop();
      }
    }
    if (wants('static')) {
      const [expressHello, nodeHello] = await Promise.all([
        baseline('express-hello'),
        baseline('node-hello'),
      ]);
      try {
        collect(await staticList(server, expressHello, nodeHello, timing));
      } finally {
        await Promise.all([stopProcess(expressHello), stopProcess(nodeHello)]);
      }
    }
    if (wants('login')) {
      // A login takes a few hundred ms of CPU: rounds of at least 3 s.
      const loginTiming = { ...timing, seconds: Math.max(3, timing.seconds) };
      collect(
        await loginLoad(
          server,
          { email: large.users[1]!.email, password: PASSWORD },
          loginTiming,
          500,
        ),
      );
      const fresh = await startServer('server (32 logins)', serverEnv);
      try {
        const login = { email: large.users[1]!.email, password: PASSWORD };
        collect({ results: [], ratios: [await loginMemory(fresh, login)] });
      } finally {
        await stopProcess(fresh);
      }
    }
    if (wants('others')) {
      results.push(
        ...(await others(server, auth, large.users[0]!, large.matchIds![0]!, {
          ...timing,
          rounds: 1,
        })),
      );
    }
    if (wants('groups')) {
      const out = await groupLists({
        sizes: [1_000, 100_000],
        // Seeding is quick at these sizes; rounds long enough for a ratio even in --quick.
        timing: {
          ...timing,
          rounds: Math.max(timing.rounds, 3),
          seconds: Math.max(timing.seconds, 3),
        },
        passwordHash,
        poolMax: POOL_MAX,
        migrate,
        token: tokenOf,
      });
      collect(out);
      if (!REUSE) await Promise.all(out.databases.map((name) => dropDatabase(name)));
    }
    if (wants('fanout')) {
      const out = fanoutRatios(await runFanout(server, large, bench));
      ratios.push(...out);
      logRatios(out);
    }
    if (wants('feed-reader')) {
      collect(
        await feedReader({
          server,
          url: large.url,
          auth,
          readerId: large.users[0]!.id,
          posts: large.posts,
          readPostId: large.postId!,
          passwordHash,
          timing,
        }),
      );
    }
    if (wants('media')) {
      const [a, b, c] = large.users;
      collect(
        await mediaBench({
          url: large.url,
          auths: [c!, a!, b!].map((u) => `Bearer ${tokenOf(u)}`) as [string, string, string],
          authorIds: [a!.id, b!.id],
          poolMax: POOL_MAX,
          timing,
        }),
      );
    }
    if (wants('contention')) {
      contention = await runContention(server, large, bench);
      ratios.push(contentionRatio(contention));
      logRatios(ratios.slice(-1));
    }
  } finally {
    // autocannon drops its sockets at the end of a run with requests still in the server; let
    // them finish before SIGTERM closes the pool.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stopProcess(server);
    await bench.end();
    if (!REUSE) await Promise.all([dropDatabase(DB.large), dropDatabase(DB.small)]);
  }

  const report: Report = {
    mode: QUICK ? 'quick' : 'full',
    date: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      node: process.version,
      loadBefore,
      loadAfter: os.loadavg(),
    },
    scale: { ...scale, poolMax: Number(POOL_MAX), connections: 32, ...timing },
    seconds: { total: (Date.now() - started) / 1000, seeding: (seededAt - started) / 1000 },
    serverIdleRssMb: idleRss,
    results,
    ratios,
    ...(contention ? { contention } : {}),
  };
  // A run of some scenarios only (--only) must not replace the full record.
  const file = writeReport(report, QUICK ? 'quick' : ONLY ? 'partial' : 'latest');
  log(`wrote ${file} in ${report.seconds.total.toFixed(0)} s`);
  const wrong = results.reduce((n, r) => n + r.wrongAnswers + r.errors, 0);
  const broken = contention
    ? [...contention.invariants, ...contention.answers].filter(([, ok]) => !ok).length
    : 0;
  if (wrong || broken) {
    console.error(
      `${wrong} wrong answers or errors, ${broken} broken invariants or unexpected answers`,
    );
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
