import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createServices } from '@campus/core';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import supertest from 'supertest';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app';
import { loggerOptions } from '../../src/logger';
import {
  expectError,
  testAuthConfig,
  type TestApp,
  type TestUser,
  onTestApp,
  postRaw,
} from '../support/app';
import { loginAs, refresh } from '../support/auth';
import { createMatch } from '../support/matches';
import { registration } from '../support/students';
import { expectErrorFormat, expectTrpcError, INTERNALS, trpc } from './support';

/**
 * Headers, CORS, error bodies and logs. A configuration that refuses to start without JWT_SECRET in
 * production is config.test.ts's; /ready during a database outage is faults/database-outage.test.ts's.
 */
let t: TestApp;
let user: TestUser;
let logLines: string[];
let logged: supertest.Agent;
const ALLOWED_ORIGIN = 'https://app.campus.test';
let withCors: supertest.Agent;
onTestApp(async (app) => {
  t = app;
  user = await t.createUser();
  // The same app on the same database, with CORS configured, and with the production logger's
  // redaction writing to memory.
  const services = createServices(t.db, testAuthConfig);
  withCors = supertest(
    createApp({
      services,
      logger: pino({ level: 'silent' }),
      ping: async () => true,
      corsOrigins: [ALLOWED_ORIGIN],
    }),
  );
  logLines = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const logger = pino(loggerOptions('info'), sink);
  logged = supertest(createApp({ services, logger, ping: async () => true }));
});

/** Makes every insert into `table` fail inside the database, with a message full of SQL. */
async function failInserts(table: 'users' | 'examples') {
  await t.db.execute(
    sql.raw(`create or replace function security_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'forced failure: SELECT password_hash FROM users WHERE id = %', new.id; end $$`),
  );
  await t.db.execute(
    sql.raw(
      `create trigger security_test_fail before insert on ${table} for each row execute function security_test_fail()`,
    ),
  );
  return () => t.db.execute(sql.raw(`drop trigger security_test_fail on ${table}`));
}

describe('API8:2023 Security Misconfiguration', () => {
  it('security headers on every kind of answer: REST, errors, /trpc, docs, health', async () => {
    const answers = {
      rest: await t.request.get('/autenticacao/usuario-atual').set(user.auth),
      restError: await t.request.get('/post/not-a-uuid').set(user.auth),
      unknownRoute: await t.request.get('/nope'),
      tooLarge: await t.request
        .post('/exemplos')
        .set(user.auth)
        .send({ nome: 'x'.repeat(110_000) }),
      trpc: await trpc(t.request, 'auth.me', undefined, user.auth),
      trpcError: await t.request.get('/trpc/nope'),
      openapi: await t.request.get('/openapi.json'),
      docs: await t.request.get('/docs/'),
      health: await t.request.get('/health'),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers['x-powered-by'], name).toBeUndefined();
      expect(res.headers['x-content-type-options'], name).toBe('nosniff');
      expect(res.headers['content-security-policy'], name).toMatch(
        /default-src 'self'.*frame-ancestors 'self'/,
      );
      expect(res.headers['strict-transport-security'], name).toMatch(/max-age=\d{7,}/);
      expect(res.headers['x-frame-options'], name).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy'], name).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy'], name).toBe('same-origin');
      expect(res.headers['x-request-id'], name).toBeDefined();
    }
  });

  it('no cross-origin access when no origin is configured (the default)', async () => {
    const requests = [
      t.request.get('/health'),
      t.request.get('/autenticacao/usuario-atual').set(user.auth),
      trpc(t.request, 'auth.me', undefined, user.auth),
      t.request.options('/exemplos').set('Access-Control-Request-Method', 'POST'),
    ];
    for (const req of requests) {
      const res = await req.set('Origin', ALLOWED_ORIGIN);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('CORS answers only the configured origin, exactly: not look-alikes, not null, never *', async () => {
    const preflight = (origin: string) =>
      withCors
        .options('/post')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization');
    const allowed = await preflight(ALLOWED_ORIGIN);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
    expect(
      (await withCors.get('/health').set('Origin', ALLOWED_ORIGIN)).headers[
        'access-control-allow-origin'
      ],
    ).toBe(ALLOWED_ORIGIN);
    const lookAlikes = [
      'https://evil.test',
      'null',
      'http://app.campus.test',
      'https://app.campus.test.evil.test',
      'https://evil-app.campus.test',
      'https://app.campus.test:8443',
    ];
    for (const origin of lookAlikes) {
      for (const res of [
        await preflight(origin),
        await withCors.get('/health').set('Origin', origin),
        await withCors.get('/trpc/auth.me').set('Origin', origin),
      ]) {
        expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      }
    }
  });

  it('no stack, SQL or driver text in any error body, REST and /trpc, each in its error format', async () => {
    const match = await createMatch(t, user);
    await t.request.post(`/match/${match.id}/subscribe`).set(user.auth).expect(201);
    const rest = [
      t.request.get('/post?limit=ten').set(user.auth),
      postRaw(t, '/exemplos', user, 'application/json', '{"nome": "x'),
      postRaw(t, '/exemplos', user, 'application/json', '{"nome": "\\ud800", "a": 1e999999}'),
      t.request.post('/exemplos').set(user.auth).type('form').send('nome=abc'),
      t.request
        .post('/exemplos')
        .set(user.auth)
        .send({ nome: 'x'.repeat(110_000) }),
      t.request.get('/exemplos').set('Authorization', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x'),
      t.request.get('/admin/usuarios').set(user.auth),
      t.request.get('/post/3f1b7f9e-0000-4000-8000-000000000000').set(user.auth),
      t.request.get('/exemplos/%E0%A4%A').set(user.auth),
      t.request.post(`/match/${match.id}/subscribe`).set(user.auth),
      t.request.get('/no-such-route'),
      t.request.trace('/health'),
      t.request
        .post('/autenticacao/cadastro')
        .send({ ...registration(), dataNascimento: '2023-02-30' }),
    ];
    for (const req of rest) expectErrorFormat(await req);
    const viaTrpc: [supertest.Test, number, Parameters<typeof expectTrpcError>[2]][] = [
      [trpc(t.request, 'examples.list', { limit: 1000 }, user.auth), 400, 'BAD_REQUEST'],
      [postRaw(t, '/trpc/examples.create', user, 'application/json', '{"nome'), 400, 'BAD_REQUEST'],
      [t.request.get('/trpc/examples.list?input=%7B').set(user.auth), 400, 'BAD_REQUEST'],
      [trpc(t.request, 'admin.listUsers', {}, user.auth), 403, 'FORBIDDEN'],
      [trpc(t.request, 'auth.me'), 401, 'UNAUTHORIZED'],
      [t.request.get('/trpc/no.such.procedure'), 404, 'NOT_FOUND'],
      [trpc(t.request, 'matches.subscribe', { id: match.id }, user.auth), 409, 'CONFLICT'],
      [
        t.request
          .post('/trpc/examples.create')
          .set(user.auth)
          .send({ nome: 'x'.repeat(110_000) }),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [req, status, code] of viaTrpc) expectTrpcError(await req, status, code);
    const batch = await t.request
      .get('/trpc/examples.list,auth.me?batch=1&input=%7B%220%22%3A%7B%22limit%22%3A0%7D%7D')
      .set(user.auth);
    expect(batch.text).not.toMatch(INTERNALS);
    expect(batch.body[0].error.data).toMatchObject({ httpStatus: 400, appCode: 'BAD_REQUEST' });
  });

  it('a forced 500 (the database refuses an insert with SQL in its message): the fixed body only, REST and /trpc', async () => {
    const restore = await failInserts('examples');
    try {
      const rest = await t.request.post('/exemplos').set(user.auth).send({ nome: 'Forçado' });
      expect(rest.status).toBe(500);
      expect(rest.body).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: expect.any(String) });
      expect(rest.text).not.toMatch(/forced failure|password_hash/);
      const viaTrpc = await trpc(t.request, 'examples.create', { nome: 'Forçado' }, user.auth);
      const error = expectTrpcError(viaTrpc, 500, 'INTERNAL_SERVER_ERROR');
      expect(error.message).toBe(rest.body.message);
      expect(viaTrpc.text).not.toMatch(/forced failure|password_hash/);
    } finally {
      await restore();
    }
  });

  it('logs carry no access token and no password (header redacted, bodies not logged)', async () => {
    logLines.length = 0;
    await logged.get('/autenticacao/usuario-atual').set(user.auth).expect(200);
    await logged
      .post('/autenticacao/login')
      .send({ email: user.email, senha: 'wrong-password-123' })
      .expect(401);
    const text = logLines.join('');
    expect(logLines.length).toBeGreaterThanOrEqual(2);
    expect(text).not.toContain(user.token);
    expect(text).not.toContain('wrong-password-123');
  });

  // Drizzle's error messages carry every query parameter ("Failed query: … params: …"); the
  // registration service strips them, so that the new password hash never reaches the log.
  it('a failed registration (the insert refused by the database) does not write the password hash to the log', async () => {
    const restore = await failInserts('users');
    try {
      logLines.length = 0;
      const res = await logged.post('/autenticacao/cadastro').send(registration());
      expect(res.status).toBe(500);
      expect(logLines.join('')).toContain('forced failure');
      expect(logLines.join('')).not.toMatch(/scrypt\$/);
    } finally {
      await restore();
    }
  });

  // Was missing (fixed: every API answer says no-store): answers that carry tokens have no Cache-Control, so a shared cache or the browser's
  // may keep them (OAuth 2.0, RFC 6749 §5.1, requires "Cache-Control: no-store" on token responses).
  // Requests: POST /autenticacao/login, POST /autenticacao/atualizar-token.
  it('answers that carry tokens say Cache-Control: no-store', async () => {
    const login = await loginAs(t, user);
    expect(login.status).toBe(200);
    expect(login.headers['cache-control']).toMatch(/no-store/);
    const refreshed = await refresh(t, login.body.dados.refreshToken);
    expect(refreshed.headers['cache-control']).toMatch(/no-store/);
  });

  // Were bugs: drizzle's error text carries every parameter of the failed statement (an e-mail
  // address reached the log with the database down), and the access log kept query strings.
  it('error and access log lines carry no SQL parameters and no query-string values', async () => {
    const restore = await failInserts('examples');
    try {
      logLines.length = 0;
      const res = await logged.post('/exemplos').set(user.auth).send({ nome: 'vazou@campus.test' });
      expect(res.status).toBe(500);
      await logged.get('/autenticacao/alunos/email-disponivel?email=consulta%40campus.test&page=2');
      const text = logLines.join('');
      expect(text).toContain('forced failure');
      expect(text).toContain('page=2');
      expect(text).not.toMatch(/vazou|consulta/);
    } finally {
      await restore();
    }
  });

  it('TRACE is not answered with the request echoed back', async () => {
    const res = await t.request.trace('/health').set('X-Secret', 'echo-me');
    expectError(res, 405, 'METHOD_NOT_SUPPORTED');
    expect(res.text).not.toContain('echo-me');
  });

  it('a request target that does not parse (`GET http://[::1/post`) is a 400 in the error format', async () => {
    // fetch and supertest refuse to send such a target: the request is written on a socket, to
    // the app served as start.ts serves it (`app.listen`).
    const app = createApp({
      services: createServices(t.db, testAuthConfig),
      logger: pino({ level: 'silent' }),
      ping: async () => true,
    });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    for (const target of ['http://[::1/post', 'http://[::1']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head, target).toMatch(/^HTTP\/1\.1 400 /);
      expect(head, target).toMatch(/\r\nContent-Type: application\/json/i);
      expect(JSON.parse(body), target).toEqual({
        code: 'BAD_REQUEST',
        message: expect.stringContaining('malformado'),
      });
    }
  });
});
