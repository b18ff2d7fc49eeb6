/**
 * `pnpm --filter @campus/bench bench:push-latency`: how long a notification takes from its
 * transaction to the push service (docs/contract/push.md, Delivery). Starts two server processes
 * from source on a fresh PostgreSQL database, a push service in this process on 127.0.0.1 (listed
 * in PUSH_ENDPOINT_HOSTS) that decrypts each message to learn its notification, one author with a
 * subscription, and sends COUNT comments (default 200) on the author's post, alternating between
 * the processes, four at a time. Latency: arrival at the push service minus the notification's
 * `created_at` (the start of its transaction, on the same machine's clock). Prints p50/p99/max.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import postgres from 'postgres';
import { signAccessToken } from '@campus/core';
import {
  JWT_SECRET,
  ROOT,
  dropDatabase,
  freshDatabase,
  log,
  startProcess,
  stopProcess,
} from './support';

const COUNT = Number(process.env.COUNT ?? 200);
const CONCURRENCY = 4;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const name = 'campus_bench_push_latency';
  const url = await freshDatabase(name);
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const plain = ece.decrypt(Buffer.concat(chunks), {
        version: 'aes128gcm',
        privateKey: ecdh,
        authSecret: auth,
      });
      const { notificationId } = JSON.parse(plain.toString()) as { notificationId: string };
      if (arrivals.has(notificationId)) throw new Error(`pushed twice: ${notificationId}`);
      arrivals.set(notificationId, at);
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/push/bench`;

  const env = {
    LOG_LEVEL: 'error',
    JWT_SECRET,
    RATE_LIMIT: 'off',
    DATABASE_URL: url,
    PUSH_ENDPOINT_HOSTS: '127.0.0.1',
  };
  const args = ['--import', 'tsx', 'src/main.ts'];
  const first = await startProcess('server 1', args, env, { cwd: `${ROOT}apps/server` });
  const servers = [first, await startProcess('server 2', args, env, { cwd: `${ROOT}apps/server` })];
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  try {
    const people = await sql<{ id: string; nickname: string; perfil: 'ALUNO' }[]>`
      insert into users (nome, nickname, email, password_hash)
      select 'Pessoa ' || i, 'bench_push_' || i, 'bench_push_' || i || '@campus.test', 'scrypt$x'
      from generate_series(1, 2) i returning id, nickname, perfil`;
    const [author, reader] = people.map((user) => ({
      ...user,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${signAccessToken({ jwtSecret: JWT_SECRET, accessTokenTtl: 3600, refreshTokenTtl: 3600, passwordCost: 10 }, user)}`,
      },
    }));
    const call = async (
      server: number,
      path: string,
      headers: Record<string, string>,
      body: unknown,
    ) => {
      const res = await fetch(`${servers[server]!.url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    await call(0, '/notifications/push/subscriptions', author!.headers, {
      endpoint,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    });
    const post = await call(0, '/post', author!.headers, {
      title: 'Bench',
      content: 'Push latency',
      type: 'GENERAL',
      author: author!.nickname,
      authorId: author!.id,
    });
    log(`sending ${COUNT} comments through two processes`);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < COUNT; i = next++)
          await call(i % 2, `/post/${post.id}/comment`, reader!.headers, { content: `#${i}` });
      }),
    );
    const deadline = Date.now() + 60_000;
    while (arrivals.size < COUNT && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const created = await sql<{ id: string; at: Date }[]>`
      select id, created_at as at from notifications where type = 'POST_COMMENT'`;
    const latencies = created
      .filter((row) => arrivals.has(row.id))
      .map((row) => arrivals.get(row.id)! - row.at.getTime())
      .sort((a, b) => a - b);
    console.log(
      `push latency, commit → push service, ${latencies.length}/${created.length} notifications on 2 processes: ` +
        `p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
    );
    if (latencies.length !== COUNT) process.exitCode = 1;
  } finally {
    await sql.end();
    await Promise.all(servers.map(stopProcess));
    receiver.closeAllConnections();
    receiver.close();
    await dropDatabase(name);
  }
}

await main();
