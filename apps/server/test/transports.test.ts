import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createRateLimitService, createServices } from '@campus/core';
import { createApp } from '../src/app';
import { batchedLimiter, exactLimiter } from '../src/rate-limit/limiter';
import { postgresStore } from '../src/rate-limit/store';
import { testAuthConfig, type TestApp, type TestUser, onTestApp } from './support/app';
import { generalBody } from './support/feed';
import { registration } from './support/students';

/*
 * One rule per HTTP policy, whichever transport carries the call: each test sends the same
 * request over REST and over /trpc and compares what a client relies on (docs/architecture.md
 * names each rule's home).
 */

let t: TestApp;
let user: TestUser;
onTestApp(async (app) => {
  t = app;
  user = await t.createUser();
});

/** A failure as each transport carries it: REST's body, tRPC's envelope. */
const restError = (res: supertest.Response) => ({
  status: res.status,
  code: res.body.code as string,
  reason: res.body.reason as string | undefined,
  message: res.body.message as string,
});
const trpcError = (res: supertest.Response) => ({
  status: res.status,
  code: res.body.error?.data?.appCode as string,
  reason: res.body.error?.data?.reason as string | undefined,
  message: res.body.error?.message as string,
});

/** Both transports refused the request with this status, error code and message (no reason). */
function expectBothRefused(
  [rest, trpc]: [supertest.Response, supertest.Response],
  status: number,
  code: string,
  message: string,
) {
  const expected = { status, code, reason: undefined, message };
  expect(restError(rest)).toEqual(expected);
  expect(trpcError(trpc)).toEqual(expected);
}

describe('the same request over REST and /trpc', () => {
  it('Idempotency-Key: a signed-in create replays its first answer on both', async () => {
    for (const [send, dataOf] of [
      [
        (body: object, key: string) =>
          t.request.post('/post').set(user.auth).set('Idempotency-Key', key).send(body),
        (r: supertest.Response) => r.body,
      ],
      [
        (body: object, key: string) =>
          t.request.post('/trpc/feed.create').set(user.auth).set('Idempotency-Key', key).send(body),
        (r: supertest.Response) => r.body.result.data,
      ],
    ] as const) {
      const key = randomUUID();
      const body = generalBody(user, { title: `both ${key}` });
      const first = await send(body, key);
      const again = await send(body, key);
      expect(again.status).toBe(first.status);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(dataOf(again)).toEqual(dataOf(first));
    }
  });

  it('Idempotency-Key: registration ignores it on both, even signed in (a repeat is a 409)', async () => {
    const rest = registration();
    const trpc = registration();
    const key = randomUUID();
    const overRest = () =>
      t.request
        .post('/autenticacao/cadastro')
        .set(user.auth)
        .set('Idempotency-Key', key)
        .send(rest);
    const overTrpc = () =>
      t.request
        .post('/trpc/students.register')
        .set(user.auth)
        .set('Idempotency-Key', key)
        .send(trpc);
    expect((await overRest()).status).toBe(201);
    expect((await overTrpc()).status).toBe(200);
    const [restAgain, trpcAgain] = [await overRest(), await overTrpc()];
    expect(restAgain.headers['idempotent-replayed']).toBeUndefined();
    expect(trpcAgain.headers['idempotent-replayed']).toBeUndefined();
    expect(restError(restAgain)).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(trpcError(trpcAgain)).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(restError(restAgain).reason).toBe(trpcError(trpcAgain).reason);
  });

  it('401: the same reason and `WWW-Authenticate: Bearer` on both', async () => {
    const rest = await t.request.get('/autenticacao/usuario-atual');
    const trpc = await t.request.get('/trpc/auth.me');
    for (const res of [rest, trpc]) expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(restError(rest)).toEqual({ ...trpcError(trpc), status: 401 });
  });

  it('404: an unknown operation is NOT_FOUND on both', async () => {
    const rest = await t.request.get('/no-such-operation');
    const trpc = await t.request.get('/trpc/noSuch.procedure');
    expect(restError(rest)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(trpcError(trpc)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('405: a documented path asked with another method, a create asked with GET: METHOD_NOT_SUPPORTED on both', async () => {
    const rest = await t.request.delete('/autenticacao/usuario-atual').set(user.auth);
    expect(restError(rest)).toMatchObject({ status: 405, code: 'METHOD_NOT_SUPPORTED' });
    expect(rest.headers.allow).toBe('GET, HEAD, PATCH, OPTIONS');
    const trpc = await t.request.get('/trpc/feed.create').set(user.auth);
    expect(trpcError(trpc)).toMatchObject({ status: 405, code: 'METHOD_NOT_SUPPORTED' });
  });

  it('415: a body that is not JSON says so on both', async () => {
    const rest = await t.request
      .post('/post')
      .set(user.auth)
      .set('Content-Type', 'text/plain')
      .send('hello');
    const trpc = await t.request
      .post('/trpc/feed.create')
      .set(user.auth)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expectBothRefused(
      [rest, trpc],
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'O corpo da requisição deve ser JSON (application/json)',
    );
  });

  it('413: the same body limit (100 kB) and message on both', async () => {
    const body = { ...generalBody(user), content: 'x'.repeat(101 * 1024) };
    const rest = await t.request.post('/post').set(user.auth).send(body);
    const trpc = await t.request.post('/trpc/feed.create').set(user.auth).send(body);
    expectBothRefused(
      [rest, trpc],
      413,
      'PAYLOAD_TOO_LARGE',
      'Corpo da requisição maior que 100 kB',
    );
  });

  it('400: a path that does not decode says it is malformed on both', async () => {
    const rest = await t.request.get('/post/%E0%A4%A').set(user.auth);
    const trpc = await t.request.get('/trpc/feed.get%E0%A4%A').set(user.auth);
    expectBothRefused(
      [rest, trpc],
      400,
      'BAD_REQUEST',
      'Caminho malformado: codificação percentual (UTF-8) inválida',
    );
  });

  it('metrics: a REST call and a /trpc call of one procedure are labelled by that procedure', async () => {
    await t.request.get('/autenticacao/usuario-atual').set(user.auth).expect(200);
    await t.request.get('/trpc/auth.me').set(user.auth).expect(200);
    const metrics = (await t.request.get('/metrics')).text;
    expect(metrics).toMatch(
      /http_requests_total\{method="GET",route="auth\.me",status="200"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /http_requests_total\{method="GET",route="trpc:auth\.me",status="200"\} [1-9]/,
    );
  });
});

describe('the per-address ceiling, over REST and /trpc', () => {
  it('counts both transports in one window, and refuses both with the same 429 and headers', async () => {
    const store = postgresStore(createRateLimitService(t.db));
    const name = randomBytes(4).toString('hex');
    const global = batchedLimiter(store, `g_${name}`, 2, 86_400, () => {});
    const request = supertest(
      createApp({
        services: createServices(t.db, testAuthConfig),
        logger: pino({ level: 'silent' }),
        ping: async () => true,
        rateLimits: { global, auth: exactLimiter(store, `a_${name}`, 100, 86_400) },
      }),
    );
    try {
      expect((await request.get('/autenticacao/usuario-atual').set(user.auth)).status).toBe(200);
      expect((await request.get('/trpc/auth.me').set(user.auth)).status).toBe(200);
      const rest = await request.get('/autenticacao/usuario-atual').set(user.auth);
      const trpc = await request.get('/trpc/auth.me').set(user.auth);
      expect(restError(rest)).toMatchObject({
        status: 429,
        code: 'TOO_MANY_REQUESTS',
        reason: 'RATE_LIMITED',
      });
      expect(trpcError(trpc)).toMatchObject({
        status: 429,
        code: 'TOO_MANY_REQUESTS',
        reason: 'RATE_LIMITED',
      });
      for (const res of [rest, trpc]) {
        expect(res.headers['ratelimit-limit']).toBe('2');
        expect(res.headers['ratelimit-remaining']).toBe('0');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    } finally {
      global.stop();
    }
  });
});
