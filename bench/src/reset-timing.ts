/**
 * `pnpm --filter @campus/bench bench:reset-timing`: POST /autenticacao/recuperar-senha must not
 * tell by its timing whether an e-mail has an account (docs/contract/accounts.md, Password recovery
 * and change). Starts the server from source on a fresh PostgreSQL database (no SMTP: the known
 * e-mail's messages wait in the outbox, the work of the request is the same), registers one
 * student, then sends 50 requests for its e-mail and 50 for unknown e-mails, interleaved one by one
 * so that any drift of the machine touches both alike. Prints both medians and their ratio; exits 1
 * when they differ by over 10%.
 */
import { registerStudentExample } from '@campus/core';
import { ROOT, dropDatabase, freshDatabase, log, startProcess, stopProcess } from './support';

const TRIES = Number(process.env.TRIES ?? 50);
const LIMIT = 0.1;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function timed(url: string, email: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/autenticacao/recuperar-senha`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  await res.arrayBuffer();
  if (res.status !== 202) throw new Error(`expected 202, got ${res.status}`);
  return performance.now() - started;
}

async function main() {
  const database = 'campus_bench_reset_timing';
  const url = await freshDatabase(database);
  const server = await startProcess(
    'server (reset timing)',
    ['--import', 'tsx', 'src/main.ts'],
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      RATE_LIMIT: 'off',
      DATABASE_URL: url,
      // Only the registration hashes a password; the measured calls do not.
      PASSWORD_HASH_COST: '12',
    },
    { cwd: `${ROOT}apps/server` },
  );
  try {
    const known = `conhecida.${Date.now()}@campus.test`;
    const registered = await fetch(`${server.url}/autenticacao/cadastro`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...registerStudentExample,
        nome: 'Pessoa Conhecida',
        nickname: `conhecida_${Date.now()}`,
        email: known,
      }),
    });
    if (registered.status !== 201) throw new Error(`registration: ${registered.status}`);
    // Warm-up: the first requests pay for connections and prepared statements.
    for (let i = 0; i < 5; i++) {
      await timed(server.url, known);
      await timed(server.url, `warmup.${i}@campus.test`);
    }
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      knownTimes.push(await timed(server.url, known));
      unknownTimes.push(await timed(server.url, `ninguem.${i}.${Date.now()}@campus.test`));
    }
    const k = median(knownTimes);
    const u = median(unknownTimes);
    const gap = Math.abs(k - u) / Math.min(k, u);
    log(
      `recuperar-senha, ${TRIES} tries each: median known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms, ` +
        `gap ${(gap * 100).toFixed(1)}% (limit ${LIMIT * 100}%)`,
    );
    process.exitCode = gap <= LIMIT ? 0 : 1;
  } finally {
    await stopProcess(server);
    await dropDatabase(database);
  }
}

await main();
