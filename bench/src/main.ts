/**
 * `pnpm bench` (or `pnpm bench:quick`): seeds dedicated PostgreSQL databases, builds and starts
 * the server in production mode beside its baselines, runs every scenario of issue 7 with
 * autocannon (every answer checked), and writes bench/results/latest.{md,json}
 * (quick.{md,json} for the quick run, partial.{md,json} for an --only run).
 *
 * Options: --quick (small seeds, short rounds), --only=lists,post,static,login,others,groups,contention
 * Environment: BENCH_DATABASE_URL (a PostgreSQL superuser URL; default postgres://postgres@
 * 127.0.0.1:5432/test), BENCH_POOL_MAX (connections per process, server and handler alike),
 * SKIP_BUILD=1 (reuse apps/server/dist), BENCH_REUSE_DB=1 (keep and reuse the seeded databases),
 * BENCH_CPU_PROF=1 (the main server writes a .cpuprofile into bench/results/profiles).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { hashPassword, signAccessToken } from '@campus/core';
import postgres from 'postgres';
import { subscribeContention, type ContentionResult } from './match-subscribe';
import { writeReport, type Report } from './report';
import {
  feedPages,
  logRatios,
  loginLoad,
  others,
  postRead,
  staticList,
  type Ratio,
  type Timing,
} from './scenarios';
import { groupLists } from './groups';
import { seedInteractions, seedMatches, seedPosts, seedUsers, type SeededUser } from './seed';
import {
  BENCH_DIR,
  JWT_SECRET,
  ROOT,
  databaseUrl,
  dropDatabase,
  freshDatabase,
  log,
  rssMb,
  startProcess,
  startServer,
  stopProcess,
  type RunResult,
  type Service,
} from './support';

const QUICK = process.argv.includes('--quick');
const ONLY = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const wants = (group: string) => !ONLY || ONLY.includes(group);
const REUSE = process.env.BENCH_REUSE_DB === '1';
const POOL_MAX = process.env.BENCH_POOL_MAX ?? '20';

const scale = QUICK
  ? { users: 1_000, smallPosts: 1_000, largePosts: 20_000, matches: 100, contention: 1_000 }
  : { users: 10_000, smallPosts: 10_000, largePosts: 1_000_000, matches: 1_000, contention: 1_000 };
const timing: Timing = QUICK
  ? { rounds: 1, seconds: 1, warmup: 1 }
  : { rounds: 3, seconds: 4, warmup: 2 };
const PASSWORD = 'bench-password-0000';
const READ_POST = 'Post 5000';
const MATCH_PLAYERS = 20;
const DB = { small: 'campus_bench_small', large: 'campus_bench_large' };

const authConfig = {
  jwtSecret: JWT_SECRET,
  accessTokenTtl: 3 * 3600,
  refreshTokenTtl: 3600,
  passwordCost: 17,
};
const tokenOf = (u: SeededUser) => signAccessToken(authConfig, { ...u, perfil: 'ALUNO' });

/** Applies the migrations with the built server's own migrator. */
function migrate(url: string) {
  execFileSync(process.execPath, ['apps/server/dist/migrate.js'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'production', JWT_SECRET },
    stdio: 'ignore',
  });
}

interface Seeded {
  url: string;
  users: SeededUser[];
  posts: number;
  postId?: string;
  matchIds?: string[];
}

async function seedDatabase(
  name: string,
  posts: number,
  full: boolean,
  passwordHash: string,
): Promise<Seeded> {
  const url = databaseUrl(name);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    if (REUSE) {
      const [found] = await sql<
        { n: string }[]
      >`select row_count as n from row_counts where table_name = 'posts'`.catch(() => []);
      if (found) {
        log(`reusing ${name}`);
        // Undo what the previous run wrote: its created posts and its subscriptions.
        await sql`delete from posts where title = 'Bench new post'`;
        await sql`delete from match_players where match_id = (select id from matches where title = ${`Match ${scale.matches}`})`;
        const users = await sql<
          SeededUser[]
        >`select id, nickname, email from bench_authors order by n`;
        const [post] = await sql<{ id: string }[]>`select id from posts where title = ${READ_POST}`;
        const matchIds = (
          await sql<
            { id: string }[]
          >`select id from matches where title like 'Match %' order by substr(title, 7)::int`
        ).map((r) => r.id);
        const [count] = await sql<
          { n: string }[]
        >`select row_count as n from row_counts where table_name = 'posts'`;
        return {
          url,
          users,
          posts: Number(count!.n),
          ...(post ? { postId: post.id } : {}),
          matchIds,
        };
      }
    }
    await sql.end();
    await freshDatabase(name);
    migrate(url);
    const seeding = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const users = await seedUsers(seeding, scale.users, passwordHash);
      await seedPosts(seeding, 1, posts);
      if (!full) return { url, users, posts };
      const postId = await seedInteractions(seeding, READ_POST, users, {
        comments: 5,
        likes: 10,
        reports: 2,
      });
      const matchIds = await seedMatches(seeding, scale.matches, users, MATCH_PLAYERS);
      await seeding`vacuum analyze`;
      return { url, users, posts, postId, matchIds };
    } finally {
      await seeding.end();
    }
  } finally {
    await sql.end();
  }
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
  const profile = process.env.BENCH_CPU_PROF === '1';
  const server = await startServer(
    'server',
    serverEnv,
    profile ? ['--cpu-prof', `--cpu-prof-dir=${BENCH_DIR}results/profiles`] : [],
  );
  const idleRss = rssMb(server.pid);
  const bench = postgres(large.url, { max: 2, onnotice: () => {} });
  const auth = `Bearer ${tokenOf(large.users[0]!)}`;
  const results: RunResult[] = [];
  const ratios: Ratio[] = [];
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
    if (wants('post')) {
      const handler = await baseline('express-post', {
        DATABASE_URL: large.url,
        DATABASE_POOL_MAX: POOL_MAX,
        JWT_SECRET,
      });
      try {
        collect(await postRead(server, handler, large.postId!, auth, timing));
      } finally {
        await stopProcess(handler);
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

/** 1,000 subscribes at once on one match, across the main server and a second process. */
async function runContention(
  server: Service,
  large: Seeded,
  sql: postgres.Sql,
): Promise<ContentionResult> {
  const matchId = large.matchIds!.at(-1)!;
  await sql`update matches set max_players = 100 where id = ${matchId}`;
  const players = large.users
    .slice(0, scale.contention)
    .map((u) => ({ id: u.id, token: tokenOf(u) }));
  const second = await startServer('server (second process)', {
    DATABASE_URL: large.url,
    DATABASE_POOL_MAX: POOL_MAX,
  });
  try {
    return await subscribeContention([server.url, second.url], sql, matchId, 100, players);
  } finally {
    await stopProcess(second);
  }
}

function contentionRatio(c: ContentionResult): Ratio {
  const subscribe = c.rounds[1]!.burst;
  const ok = [...c.invariants, ...c.answers].every(([, holds]) => holds);
  return {
    target: `subscribe contention: ${c.users} at once, p99 (ms) and invariants`,
    value: subscribe.p99,
    goal: '≤ 250 ms, all hold',
    met: subscribe.p99 <= 250 && ok,
    detail: `p99 ${subscribe.p99.toFixed(0)} ms; invariants and answers ${ok ? 'all hold' : 'BROKEN'}`,
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
