import { randomBytes } from 'node:crypto';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createRateLimitService, createServices } from '@campus/core';
import { createApp } from '../../src/app';
import { batchedLimiter, exactLimiter } from '../../src/rate-limit/limiter';
import { postgresStore, redisStore, type RateLimitStore } from '../../src/rate-limit/store';
import { expectError, testAuthConfig, type TestApp, onTestApp } from '../support/app';

let t: TestApp;
onTestApp((app) => (t = app));

/** A second app on the same database: another server process, as far as the store can tell. */
function appWith(rateLimits: Parameters<typeof createApp>[0]['rateLimits']) {
  const app = createApp({
    services: createServices(t.db, testAuthConfig),
    logger: pino({ level: 'silent' }),
    ping: async () => true,
    ...(rateLimits ? { rateLimits } : {}),
  });
  return supertest(app);
}

/**
 * The limiters' windows are fixed and aligned to the clock, so a test whose hits straddle a
 * window's end sees the count restart. A day-long window makes that as good as impossible.
 */
const WINDOW_S = 86_400;

const never = batchedLimiter(
  { increment: async () => 0, sweep: async () => {}, close: async () => {} },
  'none',
  1e9,
  60,
  () => {},
);

describe('authentication rate limit', () => {
  it('refuses the attempt over the limit with 429 and Retry-After, across processes', async () => {
    const store = postgresStore(createRateLimitService(t.db));
    const name = `auth_${randomBytes(4).toString('hex')}`;
    const a = appWith({ global: never, auth: exactLimiter(store, name, 5, WINDOW_S) });
    const b = appWith({ global: never, auth: exactLimiter(store, name, 5, WINDOW_S) });
    const attempt = (client: typeof a) =>
      client
        .post('/autenticacao/login')
        .send({ email: 'someone@campus.test', senha: 'wrong-password' });
    const statuses = [];
    for (const client of [a, b, a, b, a]) statuses.push((await attempt(client)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const refused = await attempt(b);
    expectError(refused, 429, 'TOO_MANY_REQUESTS');
    expect(refused.body.reason).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Other endpoints are not counted against the authentication limit.
    expect((await a.get('/health')).status).toBe(200);
  });

  it('counts refreshes per refresh token (its session), not per address', async () => {
    const store = postgresStore(createRateLimitService(t.db));
    const name = randomBytes(4).toString('hex');
    const client = appWith({
      global: never,
      auth: exactLimiter(store, `a_${name}`, 1, WINDOW_S),
      refresh: exactLimiter(store, `r_${name}`, 2, WINDOW_S),
    });
    // The address's one login attempt: refreshes from it are still counted apart.
    await client
      .post('/trpc/auth.login')
      .send({ email: 'a@campus.test', senha: 'whatever1' })
      .expect(401);
    await client.post('/autenticacao/atualizar-token').send({ refreshToken: 'x' }).expect(401);
    await client.post('/trpc/auth.refresh').send({ refreshToken: 'x' }).expect(401);
    expectError(
      await client.post('/autenticacao/atualizar-token/').send({ refreshToken: 'x' }),
      429,
      'TOO_MANY_REQUESTS',
    );
    // Another session behind the same address is not held back.
    await client.post('/autenticacao/atualizar-token').send({ refreshToken: 'y' }).expect(401);
  });

  it('lets requests through when the store fails', async () => {
    const broken: RateLimitStore = {
      increment: async () => {
        throw new Error('store down');
      },
      sweep: async () => {},
      close: async () => {},
    };
    const client = appWith({ global: never, auth: exactLimiter(broken, 'broken', 1, WINDOW_S) });
    for (let i = 0; i < 3; i++) {
      expect(
        (await client.post('/autenticacao/login').send({ email: 'x@campus.test', senha: 'x' }))
          .status,
      ).toBe(401);
    }
  });
});

describe('global per-address ceiling', () => {
  it('holds within one process exactly', async () => {
    const global = batchedLimiter(
      postgresStore(createRateLimitService(t.db)),
      `g_${randomBytes(4).toString('hex')}`,
      20,
      WINDOW_S,
      () => {},
    );
    const client = appWith({ global, auth: never });
    const results = await Promise.all(Array.from({ length: 30 }, () => client.get('/health')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
    global.stop();
  });

  it('adds up the processes through the shared store', async () => {
    const store = postgresStore(createRateLimitService(t.db));
    const name = `g_${randomBytes(4).toString('hex')}`;
    // Explicit flushes only: an interval's flush during B's 30 requests (a loaded machine takes
    // over a second for them) would teach B of A's 30 early and refuse its last ten.
    const ga = batchedLimiter(store, name, 50, WINDOW_S, () => {}, 3_600_000);
    const gb = batchedLimiter(store, name, 50, WINDOW_S, () => {}, 3_600_000);
    const a = appWith({ global: ga, auth: never });
    const b = appWith({ global: gb, auth: never });
    for (let i = 0; i < 30; i++) await a.get('/health').expect(200);
    await ga.flush();
    for (let i = 0; i < 30; i++) await b.get('/health').expect(200);
    await gb.flush();
    // B learnt the total of both (60 > 50) from its flush.
    expectError(await b.get('/health'), 429, 'TOO_MANY_REQUESTS');
    // A learns it at its next flush.
    await a.get('/health');
    await ga.flush();
    expectError(await a.get('/health'), 429, 'TOO_MANY_REQUESTS');
    ga.stop();
    gb.stop();
  });
});

describe('Redis store', { tags: ['redis'] }, () => {
  it('counts across clients and expires with the window', async () => {
    const one = await redisStore(process.env.TEST_REDIS_URL!);
    const two = await redisStore(process.env.TEST_REDIS_URL!);
    const key = `test:${randomBytes(6).toString('hex')}`;
    const expiresAt = new Date(Date.now() + 60_000);
    expect(await one.increment(key, 1, expiresAt)).toBe(1);
    expect(await two.increment(key, 4, expiresAt)).toBe(5);
    const client = appWith({ global: never, auth: exactLimiter(one, `auth_${key}`, 1, WINDOW_S) });
    await client
      .post('/autenticacao/login')
      .send({ email: 'r@campus.test', senha: 'x' })
      .expect(401);
    expectError(
      await client.post('/autenticacao/login').send({ email: 'r@campus.test', senha: 'x' }),
      429,
      'TOO_MANY_REQUESTS',
    );
    await one.close();
    await two.close();
  });
});
