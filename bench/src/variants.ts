/**
 * Server variants side by side: several builds (or environments) of the server on the same
 * seeded database, measured in the same interleaved rounds, so that a change's effect is not
 * lost in the noise of a shared machine. Used to measure what each tuning step bought.
 *
 *   BENCH_REUSE_DB=1 pnpm bench -- --only=post        (once: seeds and keeps campus_bench_large)
 *   cp -r apps/server/dist /tmp/before                 (any earlier build, run from apps/server/)
 *   cd bench && npx tsx src/variants.ts before=../apps/server/.before/main.js after=../apps/server/dist/main.js [path]
 *
 * A variant is `name=<main.js>` optionally followed by `,KEY=VALUE` pairs for its environment.
 * `path` is the request (default: GET /post/:id of the seeded post). The hand-written handler
 * runs beside them as the reference; with a path, Express's hello world does. ACCEPT_ENCODING
 * sends that header (as a browser: `br, gzip, deflate`). BENCH_POOL_MAX as in main.ts (default 20).
 */
import { resolve } from 'node:path';
import { signAccessToken } from '@campus/core';
import postgres from 'postgres';
import {
  BENCH_DIR,
  JWT_SECRET,
  ROOT,
  databaseUrl,
  productionNodeFlags,
  startProcess,
  stopProcess,
  type Service,
} from './support';
import { compare, parse, type Load } from './measure';
import { DB as BENCH_DB } from './options';

// The large database of `pnpm bench` (with BENCH_DB_SUFFIX, that run's own).
const DB = BENCH_DB.large;
const POOL_MAX = process.env.BENCH_POOL_MAX ?? '20';
const args = process.argv.slice(2);
const pathArg = args.find((a) => a.startsWith('/'));
const variants = args
  .filter((a) => !a.startsWith('/'))
  .map((spec) => {
    const [head, ...env] = spec.split(',');
    const [name, file] = head!.split('=');
    return {
      name: name!,
      file: resolve(process.cwd(), file!),
      env: Object.fromEntries(
        env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      ),
    };
  });

const url = databaseUrl(DB);
const sql = postgres(url, { max: 1, onnotice: () => {} });
const [user] = await sql<
  { id: string; nickname: string }[]
>`select id, nickname from bench_authors order by n limit 1`;
const [post] = await sql<{ id: string }[]>`select id from posts where title = 'Post 5000'`;
await sql.end();
const token = signAccessToken(
  { jwtSecret: JWT_SECRET, accessTokenTtl: 3600, refreshTokenTtl: 3600, passwordCost: 17 },
  { ...user!, perfil: 'ALUNO' },
);
const path = pathArg ?? `/post/${post!.id}`;
const acceptEncoding = process.env.ACCEPT_ENCODING;
const headers = {
  authorization: `Bearer ${token}`,
  ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
};

const common = { DATABASE_URL: url, DATABASE_POOL_MAX: POOL_MAX, JWT_SECRET };
const services: Service[] = [];
try {
  for (const v of variants) {
    const service = await startProcess(
      v.name,
      [...productionNodeFlags(), v.file],
      {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        RATE_LIMIT: 'off',
        ...common,
        ...v.env,
      },
      { cwd: ROOT },
    );
    services.push({ ...service, database: DB });
  }
  const reference = pathArg ? 'express-hello' : 'express-post';
  const handler = await startProcess(
    reference,
    ['--import', 'tsx', 'src/baselines.ts', reference],
    common,
    { cwd: BENCH_DIR },
  );
  services.push({ ...handler, database: DB });
  const check = (body: string) => {
    if (acceptEncoding) return body.length > 0;
    const parsed = parse<{ id?: string; dados?: unknown }>(body);
    return pathArg ? parsed !== undefined : parsed?.id === post!.id;
  };
  const loads: Load[] = services.map((service) => ({
    name: service.name,
    service,
    path: service.name === reference && pathArg ? '/' : path,
    headers,
    check,
  }));
  const rounds = Number(process.env.ROUNDS ?? 3);
  const results = await compare(loads, {
    rounds,
    seconds: Number(process.env.SECONDS ?? 4),
    warmup: 2,
  });
  const last = results.at(-1)!;
  console.log(
    `\n| variant | req/s | × last | p50 ms | p99 ms | CPU µs/req server + db | wrong |\n|---|---:|---:|---:|---:|---:|---:|`,
  );
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.requestsPerSec.toFixed(0)} | ${(r.requestsPerSec / last.requestsPerSec).toFixed(2)} | ${r.p50} | ${r.p99} | ` +
        `${r.serverCpuUs?.toFixed(0)} + ${r.dbCpuUs?.toFixed(0)} | ${r.wrongAnswers + r.errors} |`,
    );
  }
} finally {
  await Promise.all(services.map(stopProcess));
}
