import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { AppRouter } from '@campus/api';
import { createRateLimitService, createServices } from '@campus/core';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, MAX_BATCH_SIZE } from '../../src/app';
import { batchedLimiter, exactLimiter } from '../../src/rate-limit/limiter';
import { clientKey } from '../../src/rate-limit/middleware';
import { postgresStore } from '../../src/rate-limit/store';
import { expectError, startTestApp, testAuthConfig, type TestApp } from '../support/app';
import { registration } from '../support/students';

/**
 * The authentication limit is the procedure's (route policy in its meta), so REST, a single /trpc
 * call and each call inside a /trpc batch count one attempt each, whatever the path's spelling.
 */

let t: TestApp;
const servers: Server[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await t.close();
});

/** Another app ("process") on the test database, with an authentication limit of `authMax`. */
async function limitedApp(authMax: number, name = `auth_${randomBytes(4).toString('hex')}`) {
  const store = postgresStore(createRateLimitService(t.db));
  const app = createApp({
    services: createServices(t.db, testAuthConfig),
    logger: pino({ level: 'silent' }),
    ping: async () => true,
    rateLimits: {
      global: batchedLimiter(store, `g_${name}`, 1e9, 60, () => {}),
      auth: exactLimiter(store, name, authMax, 86_400),
    },
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return {
    request: supertest(server),
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    name,
  };
}

type Envelope = {
  error?: { data: { appCode: string; httpStatus: number } };
  result?: { data: unknown };
};

/** A /trpc batch of `inputs.length` calls of `procedure`; the answers in order. */
async function batch(
  request: supertest.Agent,
  procedure: string,
  inputs: unknown[],
  path = '/trpc',
) {
  const response = await request
    .post(`${path}/${inputs.map(() => procedure).join(',')}?batch=1`)
    .send(Object.fromEntries(inputs.map((input, i) => [String(i), input])));
  return { response, calls: response.body as Envelope[] };
}

const appCodes = (calls: Envelope[]) => calls.map((call) => call.error?.data.appCode ?? 'OK');

describe('authentication limit per call', () => {
  it('refuses every call of a batch past the limit, before any password check, in tRPC’s envelope', async () => {
    const user = await t.createUser();
    const { request } = await limitedApp(3);
    const wrong = { email: user.email, senha: 'not-the-password' };
    for (let i = 0; i < 3; i++)
      expectError(await request.post('/autenticacao/login').send(wrong), 401, 'UNAUTHORIZED');
    expectError(await request.post('/autenticacao/login').send(wrong), 429, 'TOO_MANY_REQUESTS');

    // Nine wrong passwords and the right one: all refused, so the right one was never checked.
    const inputs = [
      ...Array.from({ length: 9 }, () => wrong),
      { email: user.email, senha: user.password },
    ];
    const { response, calls } = await batch(request, 'auth.login', inputs);
    expect(response.status).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(appCodes(calls)).toEqual(Array(10).fill('TOO_MANY_REQUESTS'));
    expect(calls.every((call) => call.error?.data.httpStatus === 429)).toBe(true);
    expect(JSON.stringify(calls)).not.toContain('accessToken');
  });

  it('counts each call of a batch: the calls past the limit are refused, the others answered', async () => {
    const { request } = await limitedApp(4);
    const { response, calls } = await batch(
      request,
      'auth.login',
      Array.from({ length: 6 }, () => ({ email: 'nobody@campus.test', senha: 'whatever1' })),
    );
    expect(response.status).toBe(207);
    const codes = appCodes(calls);
    expect(codes.filter((code) => code === 'UNAUTHORIZED')).toHaveLength(4);
    expect(codes.filter((code) => code === 'TOO_MANY_REQUESTS')).toHaveLength(2);
  });

  it('applies to login and registration alike (not to refresh), REST and tRPC, single and batched', async () => {
    const { request } = await limitedApp(6);
    const student = () => registration();
    await request
      .post('/autenticacao/login')
      .send({ email: 'a@campus.test', senha: 'x' })
      .expect(401);
    await request
      .post('/autenticacao/login')
      .send({ email: 'b@campus.test', senha: 'x' })
      .expect(401);
    await request.post('/autenticacao/cadastro').send(student()).expect(201);
    await request.post('/trpc/auth.login').send({ email: 'c@campus.test', senha: 'x' }).expect(401);
    await request.post('/trpc/students.register').send(student()).expect(200);
    await request.post('/trpc/auth.login').send({ email: 'a@campus.test', senha: 'x' }).expect(401);
    // The limit (6) is reached: nothing more gets through, however it is sent.
    expectError(
      await request.post('/autenticacao/cadastro').send(student()),
      429,
      'TOO_MANY_REQUESTS',
    );
    expectError(
      await request.post('/autenticacao/login').send({ email: 'd@campus.test', senha: 'x' }),
      429,
      'TOO_MANY_REQUESTS',
    );
    const registrations = await batch(request, 'students.register', [
      student(),
      student(),
      student(),
    ]);
    expect(appCodes(registrations.calls)).toEqual(Array(3).fill('TOO_MANY_REQUESTS'));
    const logins = await batch(request, 'auth.login', [
      { email: 'e@campus.test', senha: 'x' },
      { email: 'f@campus.test', senha: 'x' },
    ]);
    expect(appCodes(logins.calls)).toEqual(Array(2).fill('TOO_MANY_REQUESTS'));
    // A refresh is counted per token (its session), not per address: still answered.
    await request.post('/autenticacao/atualizar-token').send({ refreshToken: 'x' }).expect(401);
    const single = await request.post('/trpc/students.register').send(student());
    expect(single.status).toBe(429);
    expect((single.body as Envelope).error?.data.appCode).toBe('TOO_MANY_REQUESTS');
  });

  it('counts the e-mail and nickname availability checks in the same limit, REST and tRPC', async () => {
    const { request } = await limitedApp(4);
    const email = '/autenticacao/alunos/email-disponivel?email=livre%40campus.test';
    const nickname = '/autenticacao/alunos/nickname-disponivel?nickname=livre_1';
    await request.get(email).expect(200);
    await request.get(nickname).expect(200);
    await request.post('/autenticacao/cadastro').send(registration()).expect(201);
    await request
      .get('/trpc/students.emailAvailable')
      .query({ input: JSON.stringify({ email: 'livre@campus.test' }) })
      .expect(200);
    // The limit (4) is reached: neither check answers, so neither tells who has an account.
    for (const refused of [await request.get(email), await request.get(nickname)]) {
      expectError(refused, 429, 'TOO_MANY_REQUESTS');
      expect(refused.body).toMatchObject({ reason: 'RATE_LIMITED' });
    }
    await request.post('/autenticacao/cadastro').send(registration()).expect(429);
  });

  it('is not got around by spelling the path differently', async () => {
    const user = await t.createUser();
    const { request } = await limitedApp(1);
    await request
      .post('/autenticacao/login')
      .send({ email: user.email, senha: 'wrong-password' })
      .expect(401);
    const right = { email: user.email, senha: user.password };
    for (const path of [
      '/trpc/auth.login',
      '/TRPC/auth.login',
      '/trpc//auth.login',
      '/trpc/auth%2Elogin',
      '/autenticacao/login/',
      '/AUTENTICACAO/login',
    ]) {
      const response = await request.post(path).send(right);
      expect(response.status, path).not.toBe(200);
      expect(JSON.stringify(response.body), path).not.toContain('accessToken');
    }
  });

  it('carries the RateLimit headers on every limited answer, and none on others', async () => {
    const { request } = await limitedApp(5);
    const first = await request
      .post('/autenticacao/login')
      .send({ email: 'h@campus.test', senha: 'x' });
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('4');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    const overTrpc = await request
      .post('/trpc/auth.login')
      .send({ email: 'h@campus.test', senha: 'x' });
    expect(overTrpc.headers['ratelimit-remaining']).toBe('3');
    expect((await request.get('/health')).headers['ratelimit-limit']).toBeUndefined();
  });

  it(`holds a batch to ${MAX_BATCH_SIZE} calls`, async () => {
    const { request } = await limitedApp(100);
    const inputs = Array.from({ length: MAX_BATCH_SIZE + 1 }, () => ({
      email: 'b@campus.test',
      senha: 'x',
    }));
    const { response } = await batch(request, 'auth.login', inputs);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).not.toContain('UNAUTHORIZED');
  });

  it('reaches the stock @trpc/client httpBatchLink as a TRPCClientError with appCode', async () => {
    const { url } = await limitedApp(2);
    const client = createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: `${url}/trpc`, maxItems: MAX_BATCH_SIZE })],
    });
    // Concurrent calls: the link merges them into one batch by itself.
    const attempts = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        client.auth.login.mutate({ email: 'c@campus.test', senha: 'whatever1' }),
      ),
    );
    const errors = attempts.map((attempt) =>
      attempt.status === 'rejected' ? attempt.reason : undefined,
    );
    expect(errors.every((error) => error instanceof TRPCClientError)).toBe(true);
    const codes = errors.map((error) => (error as TRPCClientError<AppRouter>).data?.appCode);
    expect(codes.sort()).toEqual([
      'TOO_MANY_REQUESTS',
      'TOO_MANY_REQUESTS',
      'UNAUTHORIZED',
      'UNAUTHORIZED',
    ]);
  });
});

describe('client keys', () => {
  it('counts IPv4 as is, IPv4-mapped IPv6 as IPv4, and IPv6 per /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });
});
