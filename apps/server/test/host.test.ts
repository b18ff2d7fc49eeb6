import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createRateLimitService, createServices } from '@campus/core';
import { createApp } from '../src/app';
import { batchedLimiter, exactLimiter } from '../src/rate-limit/limiter';
import { postgresStore } from '../src/rate-limit/store';
import { expectError, testAuthConfig, type TestApp, onTestApp } from './support/app';

/*
 * The one host: an Express app serves every request (the operators' middlewares, /trpc, the
 * static lists, the probes and docs, the REST router, the web app). What every answer carries
 * (CORS, the per-address limits behind a trusted proxy, request id, access log, metrics) is on
 * the lists' and the REST operations' answers too, and only the documented API paths run the
 * API's pipeline.
 */

let t: TestApp;
onTestApp((app) => (t = app));

const CITIES = '/autenticacao/alunos/localidades/estados/SP/cidades';
const UNKNOWN_UF = '/autenticacao/alunos/localidades/estados/XX/cidades';
const ORIGIN = 'https://app.campus.test';
/** Fixed windows aligned to the clock: a day-long one never restarts during a test. */
const WINDOW_S = 86_400;

function appWith(options: Partial<Parameters<typeof createApp>[0]> = {}) {
  return createApp({
    services: createServices(t.db, testAuthConfig),
    logger: pino({ level: 'silent' }),
    ping: async () => true,
    ...options,
  });
}

/**
 * An app behind a trusted proxy with limits of its own (`globalMax`, `authMax` per address), in
 * the shared store; `stop` ends the global limiter's flush timer.
 */
function limitedBehindProxy(globalMax: number, authMax: number) {
  const store = postgresStore(createRateLimitService(t.db));
  const name = randomBytes(4).toString('hex');
  const global = batchedLimiter(store, `g_${name}`, globalMax, WINDOW_S, () => {});
  const request = supertest(
    appWith({
      trustProxy: true,
      rateLimits: { global, auth: exactLimiter(store, `a_${name}`, authMax, WINDOW_S) },
    }),
  );
  return { request, stop: () => global.stop() };
}

describe('one Express app serves every request', () => {
  it('createApp returns the Express app itself: its own listen serves it', async () => {
    const app = appWith();
    const server: Server = await new Promise((resolve, reject) => {
      const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}${CITIES}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ mensagem: 'Cidades de SP' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a web app path never runs the API's pipeline: POST /feed as text is no 415", async () => {
    const request = supertest(appWith());
    const text = (path: string) =>
      request.post(path).set('Content-Type', 'text/plain').send('hello');
    const res = await text('/feed');
    expectError(res, 404, 'NOT_FOUND');
    expect(res.body.message).toBe('Rota não encontrada: POST /feed');
    // The same body on a documented operation is refused for what it is.
    const api = await text('/post/');
    expectError(api, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(api.body.message).toBe('O corpo da requisição deve ser JSON (application/json)');
  });
});

describe('the static lists and the REST operations carry what every answer carries', () => {
  it('carry CORS for an allowed origin, with Vary on both Origin and Accept-Encoding', async () => {
    const request = supertest(appWith({ corsOrigins: [ORIGIN] }));
    const res = await request.get(CITIES).set('Origin', ORIGIN).set('Accept-Encoding', 'br');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-expose-headers']).toContain('ETag');
    expect(res.headers.vary).toBe('Origin, Accept-Encoding');
    expect(res.headers['content-encoding']).toBe('br');
    // A preflight on a list's path is answered by CORS, not by the list.
    const preflight = await request
      .options(CITIES)
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    // Another origin gets no CORS header, and the list all the same.
    const other = await request.get(CITIES).set('Origin', 'https://elsewhere.test');
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('pass the per-address ceiling, counted once, by the address behind a trusted proxy', async () => {
    const { request, stop } = limitedBehindProxy(4, 100);
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    const a = from('203.0.113.7');
    // Lists from memory, and an unknown UF that goes on to the REST router (400): counted
    // once, or the fourth request would already be over the limit of four.
    expect((await request.get(CITIES).set(a)).status).toBe(200);
    expect((await request.get(CITIES).set(a)).status).toBe(200);
    expectError(await request.get(UNKNOWN_UF).set(a), 400, 'BAD_REQUEST');
    expect((await request.get(CITIES).set(a)).status).toBe(200);
    const refused = await request.get(CITIES).set(a);
    expectError(refused, 429, 'TOO_MANY_REQUESTS');
    expect(refused.body.reason).toBe('RATE_LIMITED');
    expect(refused.headers['ratelimit-limit']).toBe('4');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-request-id']).toBeTruthy();
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    // Another client behind the same proxy has its own count.
    expect((await request.get(CITIES).set(from('198.51.100.20'))).status).toBe(200);
    stop();
  });

  it("the REST operations' own limits count the address behind a trusted proxy too", async () => {
    const { request, stop } = limitedBehindProxy(1000, 1);
    const login = (address: string) =>
      request
        .post('/autenticacao/login')
        .set('X-Forwarded-For', address)
        .send({ email: 'nobody@campus.test', senha: 'wrong-password' });
    expectError(await login('203.0.113.8'), 401, 'UNAUTHORIZED');
    expectError(await login('203.0.113.8'), 429, 'TOO_MANY_REQUESTS');
    expectError(await login('198.51.100.21'), 401, 'UNAUTHORIZED');
    stop();
  });

  it('route a request with an absolute-form target (`GET http://host/path`) as Express would', async () => {
    const server: Server = await new Promise((resolve) => {
      const s = createServer(appWith()).listen(0, '127.0.0.1', () => resolve(s));
    });
    const { port } = server.address() as AddressInfo;
    const raw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        );
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    try {
      const list = await raw(`http://x${CITIES}`);
      expect(list).toMatch(/^HTTP\/1\.1 200 /);
      expect(list).toContain('"uf":"SP"');
      expect(await raw('http://x/trpc/localities.estados')).toMatch(
        /^HTTP\/1\.1 200 [\s\S]*"result"/,
      );
      expect(await raw('http://x/health')).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"status":"ok"\}/);
      expect(await raw('http://x/post/not-a-uuid')).toMatch(/^HTTP\/1\.1 (400|401) /);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('carry a request id, write the access log line and count in the metrics', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const request = supertest(appWith({ logger: pino({ level: 'info' }, sink) }));
    const metric = async () => {
      const text = (await request.get('/metrics')).text;
      const line = text
        .split('\n')
        .find((l) =>
          l.startsWith('http_requests_total{method="GET",route="localities.cidades",status="200"}'),
        );
      return Number(line?.split(' ')[1] ?? 0);
    };
    const before = await metric();
    const res = await request.get(`${CITIES}?page=2`).set('X-Request-Id', 'host-test-1');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('host-test-1');
    expect(res.headers['strict-transport-security']).toBeTruthy();
    expect(await metric()).toBe(before + 1);
    await expect
      .poll(() => lines.find((l) => l.reqId === 'host-test-1'))
      .toMatchObject({
        msg: 'request completed',
        req: { method: 'GET', url: `${CITIES}?page=2` },
        res: { statusCode: 200 },
      });
  });
});
