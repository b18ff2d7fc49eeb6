import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { createRateLimitService, createServices } from '@campus/core';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { batchedLimiter, exactLimiter } from '../../src/rate-limit/limiter';
import {
  fallbackStore,
  postgresStore,
  redisStore,
  type RateLimitStore,
} from '../../src/rate-limit/store';
import { expectError, onTestApp, testAuthConfig, type TestApp } from '../support/app';
import { waitFor } from '../support/process';
import { tcpProxy } from '../support/tcp-proxy';

/**
 * Limits that survive their store (docs/operations.md, "Limits and their store"): with Redis
 * refusing connections, or accepting them and never answering, the login limit still applies,
 * counted in PostgreSQL, and every attempt is answered.
 */

let t: TestApp;
onTestApp((app) => (t = app));

const never = batchedLimiter(
  { increment: async () => 0, sweep: async () => {}, close: async () => {} },
  'none',
  1e9,
  60,
  () => {},
);

/** A login limit of 3 over Redis at `url`, falling back to the test database. */
async function limitedOver(url: string, redis?: RateLimitStore) {
  const failures: unknown[] = [];
  const store: RateLimitStore = fallbackStore(
    redis ?? (await redisStore(url)),
    postgresStore(createRateLimitService(t.db)),
    (error) => failures.push(error),
  );
  const app = createApp({
    services: createServices(t.db, testAuthConfig),
    logger: pino({ level: 'silent' }),
    ping: async () => true,
    rateLimits: {
      global: never,
      auth: exactLimiter(store, `auth_${randomBytes(4).toString('hex')}`, 3, 86_400),
    },
  });
  return { request: supertest(app), store, failures };
}

async function expectLimitHolds(request: supertest.Agent) {
  const attempt = () =>
    request.post('/autenticacao/login').send({ email: 'r@campus.test', senha: 'x' });
  for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
  expectError(await attempt(), 429, 'TOO_MANY_REQUESTS');
}

/** A port nothing listens on. */
async function closedPort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('rate limits when Redis is away', () => {
  it('still apply when Redis refuses connections', async () => {
    const { request, store, failures } = await limitedOver(
      `redis://127.0.0.1:${await closedPort()}`,
    );
    await expectLimitHolds(request);
    expect(failures.length).toBeGreaterThan(0);
    await store.close();
  });

  it('still apply when Redis accepts connections and never answers', async () => {
    const silent: Server = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const { request, store, failures } = await limitedOver(`redis://127.0.0.1:${port}`);
    await expectLimitHolds(request);
    expect(failures.length).toBeGreaterThan(0);
    await store.close();
    silent.close();
  });

  it('still apply when a working Redis hangs mid-way', { tags: ['redis-server'] }, async () => {
    const redis = await startRedis();
    const proxy = await tcpProxy({ host: '127.0.0.1', port: redis.port });
    try {
      const url = `redis://127.0.0.1:${proxy.port}`;
      const connected = await redisStore(url);
      const expiresAt = new Date(Date.now() + 60_000);
      await waitFor(
        () =>
          connected.increment('ready', 1, expiresAt).then(
            () => true,
            () => false,
          ),
        10_000,
        'redis',
      );
      const { request, store, failures } = await limitedOver(url, connected);
      const attempt = () =>
        request.post('/autenticacao/login').send({ email: 'r@campus.test', senha: 'x' });
      // Counted in Redis while it answers…
      expect((await attempt()).status).toBe(401);
      expect(failures).toEqual([]);
      // …then it hangs: the next attempts are counted in PostgreSQL and the limit still holds
      // (the window's count split between the stores: at most twice the limit in it).
      proxy.blackHole();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await attempt()).status);
      expect(failures.length).toBeGreaterThan(0);
      expect(statuses).toContain(429);
      await store.close();
    } finally {
      await proxy.close();
      redis.stop();
    }
  });
});

/** A Redis server of the test's own on a port the OS chose, without persistence. */
async function startRedis() {
  const port = await closedPort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      }),
    10_000,
    'redis',
  );
  return { port, stop: () => child.kill('SIGKILL') };
}
