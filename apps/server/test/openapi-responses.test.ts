import type { Server } from 'node:http';
import { buildOpenApiDocument, restRoutes } from '@campus/api';
import { createRateLimitService, createServices, signAccessToken } from '@campus/core';
import { createDatabase } from '@campus/core/db';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { probePaths } from '../src/http/probes';
import { batchedLimiter, exactLimiter } from '../src/rate-limit/limiter';
import { postgresStore } from '../src/rate-limit/store';
import { startTestApp, testAuthConfig, type TestApp, type TestUser } from './support/app';
import { createResponseValidator } from './support/openapi-validator';
import { openStream } from './support/sse';

/**
 * Every REST operation and probe, answered for real, checked against the OpenAPI document with a
 * JSON Schema validator (status, headers, body): at least one success and one failure each, the
 * request bodies being the document's own examples. Runs on PGlite and on PostgreSQL.
 */
const doc = buildOpenApiDocument('/', probePaths);
const validator = createResponseValidator(doc);
const UNKNOWN = '3f1b7f9e-0000-4000-8000-000000000000';

/** Statuses seen per documented operation (`GET /post/{id}` → {200, 404}). */
const seen = new Map<string, Set<number>>();

type Agent = ReturnType<typeof supertest>;
interface Call {
  as?: TestUser | { auth: Record<string, string> };
  body?: unknown;
  headers?: Record<string, string>;
  agent?: Agent;
}

let t: TestApp;
let admin: TestUser;
let ana: TestUser;
let bia: TestUser;
const servers: Server[] = [];

async function call(method: string, url: string, expected: number, options: Call = {}) {
  let request = (options.agent ?? t.request)[method.toLowerCase() as 'get'](url);
  if (options.as) request = request.set(options.as.auth);
  for (const [name, value] of Object.entries(options.headers ?? {}))
    request = request.set(name, value);
  if (options.body !== undefined)
    request =
      typeof options.body === 'string'
        ? request.send(options.body)
        : request.send(options.body as object);
  const res = await request;
  const key = validator.operationOf(method, url)?.key ?? `${method} ${url}`;
  expect(res.status, `${key}: ${res.text.slice(0, 300)}`).toBe(expected);
  expect(
    validator.problems(method, url, {
      status: res.status,
      headers: res.headers,
      text: res.text ?? '',
    }),
  ).toEqual([]);
  seen.set(key, (seen.get(key) ?? new Set()).add(res.status));
  return res;
}

/** The documented request body example of an operation (what Swagger UI's "Try it out" sends). */
function example(method: string, template: string, overrides: Record<string, unknown> = {}) {
  const route = restRoutes.find(
    (r) => r.rest.method === method && r.meta.openapi!.path === template,
  );
  expect(route?.rest.example, `${method} ${template} has a request example`).toBeDefined();
  return { ...route!.rest.example, ...overrides };
}

async function listen(app: ReturnType<typeof createApp>): Promise<Agent> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return supertest(server);
}

beforeAll(async () => {
  t = await startTestApp();
  [admin, ana, bia] = await Promise.all([
    t.createUser({ perfil: 'ADMIN' }),
    t.createUser(),
    t.createUser(),
  ]);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await t.close();
});

describe('authentication', () => {
  it('login, refresh, current user, logout', async () => {
    const login = await call('POST', '/autenticacao/login', 200, {
      body: { email: ana.email, senha: ana.password },
    });
    await call('POST', '/autenticacao/login', 401, {
      body: { email: ana.email, senha: 'wrong-password' },
    });
    await call('POST', '/autenticacao/login', 400, { body: { email: 'not an e-mail' } });
    const blocked = await t.createUser({ status: 'INATIVO' });
    await call('POST', '/autenticacao/login', 403, {
      body: { email: blocked.email, senha: blocked.password },
    });
    await call('POST', '/autenticacao/login', 415, {
      headers: { 'Content-Type': 'text/plain' },
      body: 'email=ana',
    });
    await call('POST', '/autenticacao/login', 413, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'a'.repeat(110_000) }),
    });

    const { refreshToken } = login.body.dados as { refreshToken: string };
    const refreshed = await call('POST', '/autenticacao/atualizar-token', 200, {
      body: { refreshToken },
    });
    await call('POST', '/autenticacao/atualizar-token', 401, { body: { refreshToken } });
    await call('POST', '/autenticacao/atualizar-token', 400, { body: {} });

    await call('GET', '/autenticacao/usuario-atual', 200, { as: ana });
    await call('GET', '/autenticacao/usuario-atual', 401, {});
    const expired = signAccessToken({ ...testAuthConfig, accessTokenTtl: -60 }, ana);
    await call('GET', '/autenticacao/usuario-atual', 401, {
      as: { auth: { Authorization: `Bearer ${expired}` } },
    });
    await call('GET', '/autenticacao/usuario-atual', 401, { as: blocked });

    const next = (refreshed.body.dados as { refreshToken: string }).refreshToken;
    await call('POST', '/autenticacao/sair', 204, { as: ana, body: { refreshToken: next } });
    await call('POST', '/autenticacao/sair', 401, { body: { refreshToken: next } });
    await call('POST', '/autenticacao/sair', 400, { as: ana, body: {} });
  });
});

describe('registration and its lists', () => {
  it('registers with the documented example, then refuses it as taken', async () => {
    const body = example('POST', '/autenticacao/cadastro');
    await call('POST', '/autenticacao/cadastro', 201, { body });
    await call('POST', '/autenticacao/cadastro', 409, { body });
    await call('POST', '/autenticacao/cadastro', 400, {
      body: { ...body, dataNascimento: '0604-01-01' },
    });
  });

  it('availability checks', async () => {
    await call('GET', '/autenticacao/alunos/nickname-disponivel?nickname=livre_123', 200);
    await call('GET', '/autenticacao/alunos/nickname-disponivel?nickname=X', 400);
    await call('GET', '/autenticacao/alunos/email-disponivel?email=livre%40campus.test', 200);
    await call('GET', '/autenticacao/alunos/email-disponivel?email=nope', 400);
  });

  it('static lists: 200, 304 on If-None-Match, trailing slash', async () => {
    for (const path of [
      '/autenticacao/alunos/nacionalidades',
      '/autenticacao/alunos/opcoes-academicas',
      '/autenticacao/alunos/localidades/estados',
      '/autenticacao/alunos/localidades/estados/sp/cidades',
    ]) {
      const first = await call('GET', path, 200);
      await call('GET', `${path}/`, 304, {
        headers: { 'If-None-Match': first.headers.etag as string },
      });
    }
    await call('GET', '/autenticacao/alunos/localidades/estados/XX/cidades', 400);
  });
});

describe('examples', () => {
  it('create (idempotent), list, read', async () => {
    const body = example('POST', '/exemplos');
    const key = { 'Idempotency-Key': `k-${UNKNOWN}` };
    const created = await call('POST', '/exemplos', 201, { as: ana, body, headers: key });
    const replay = await call('POST', '/exemplos', 201, { as: ana, body, headers: key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    await call('POST', '/exemplos', 422, {
      as: ana,
      body: { nome: 'Outro exemplo' },
      headers: key,
    });
    await call('POST', '/exemplos', 400, { as: ana, body: { nome: 'x' } });
    await call('POST', '/exemplos', 401, { body });

    await call('GET', '/exemplos?page=1&limit=5', 200, { as: ana });
    await call('GET', '/exemplos/', 200, { as: ana });
    await call('GET', '/exemplos?page=0', 400, { as: ana });
    await call('GET', '/exemplos', 401);
    const id = (created.body.dados as { id: string }).id;
    await call('GET', `/exemplos/${id}`, 200, { as: ana });
    await call('GET', `/exemplos/${UNKNOWN}`, 404, { as: ana });
  });
});

describe('administration', () => {
  it('list, read, change status', async () => {
    await call('GET', '/admin/usuarios?status=ACTIVE&limit=2', 200, { as: admin });
    await call('GET', '/admin/usuarios', 403, { as: ana });
    await call('GET', '/admin/usuarios?status=NOPE', 400, { as: admin });
    await call('GET', `/admin/usuarios/${ana.id}`, 200, { as: admin });
    await call('GET', `/admin/usuarios/${UNKNOWN}`, 404, { as: admin });
    const target = await t.createUser({ status: 'PENDENTE' });
    const body = example('PATCH', '/admin/usuarios/{id}/status');
    await call('PATCH', `/admin/usuarios/${target.id}/status`, 200, { as: admin, body });
    await call('PATCH', `/admin/usuarios/${admin.id}/status`, 403, { as: admin, body });
    await call('PATCH', `/admin/usuarios/${target.id}/status`, 400, {
      as: admin,
      body: { status: 'X' },
    });
    await call('PATCH', `/admin/usuarios/${UNKNOWN}/status`, 404, { as: admin, body });
  });
});

describe('matches', () => {
  it('create, list, read, change, subscribe, switch, unsubscribe, delete', async () => {
    const body = example('POST', '/match', { userId: ana.id });
    const created = await call('POST', '/match', 201, { as: ana, body });
    const id = (created.body as { id: string }).id;
    await call('POST', '/match', 403, { as: bia, body });
    await call('POST', '/match', 400, {
      as: ana,
      body: { ...body, MatchDate: '0604-01-01T00:00:00Z' },
    });

    await call('GET', '/match?status=EM_BREVE', 200, { as: ana });
    await call('GET', '/match?status=SOON', 400, { as: ana });
    await call('GET', `/match/${id}`, 200, { as: bia });
    await call('GET', `/match/${UNKNOWN}`, 404, { as: bia });
    await call('GET', '/match/not-a-uuid', 400, { as: bia });

    await call('PATCH', `/match/${id}`, 200, { as: ana, body: example('PATCH', '/match/{id}') });
    await call('PATCH', `/match/${id}`, 403, { as: bia, body: { title: 'Not mine' } });
    await call('PATCH', `/match/${id}`, 409, { as: ana, body: { MatchStatus: 'FINALIZADA' } });

    await call('POST', `/match/${id}/subscribe`, 201, { as: bia });
    await call('POST', `/match/${id}/subscribe`, 409, { as: bia });
    await call('POST', `/match/${id}/switch`, 200, { as: bia });
    await call('POST', `/match/${id}/switch`, 404, { as: ana });
    await call('DELETE', `/match/${id}/unsubscribe`, 200, { as: bia });
    await call('DELETE', `/match/${id}/unsubscribe`, 404, { as: bia });

    const small = await call('POST', '/match', 201, { as: ana, body: { ...body, maxPlayers: 2 } });
    const smallId = (small.body as { id: string }).id;
    await call('POST', `/match/${smallId}/subscribe`, 201, { as: ana });
    await call('POST', `/match/${smallId}/subscribe`, 201, { as: bia });
    await call('POST', `/match/${smallId}/switch`, 403, { as: bia });
    await call('POST', `/match/${smallId}/subscribe`, 403, { as: admin });

    await call('DELETE', `/match/${id}`, 403, { as: bia });
    await call('DELETE', `/match/${id}`, 204, { as: ana });
    await call('DELETE', `/match/${id}`, 404, { as: ana });
  });
});

describe('feed', () => {
  it('posts, comments, likes, attendances, reports', async () => {
    const body = example('POST', '/post', { author: ana.nickname, authorId: ana.id });
    const event = await call('POST', '/post', 201, { as: ana, body });
    const id = (event.body as { id: string }).id;
    await call('POST', '/post', 403, { as: bia, body });
    await call('POST', '/post', 400, { as: ana, body: { ...body, eventDate: 'tomorrow' } });
    const general = await call('POST', '/post', 201, {
      as: bia,
      body: { title: 'Study group', type: 'GENERAL', author: bia.nickname, authorId: bia.id },
    });
    const generalId = (general.body as { id: string }).id;

    await call('GET', '/post?limit=5', 200, { as: bia });
    await call('GET', '/post/', 200, { as: bia });
    await call('GET', '/post?limit=51', 400, { as: bia });
    await call('GET', `/post/${id}`, 200, { as: bia });
    await call('GET', `/post/${UNKNOWN}`, 404, { as: bia });
    await call('PATCH', `/post/${id}`, 200, { as: ana, body: example('PATCH', '/post/{id}') });
    await call('PATCH', `/post/${id}`, 403, { as: bia, body: { title: 'Mine now' } });
    await call('PATCH', `/post/${id}`, 400, { as: ana, body: {} });

    const comment = await call('POST', `/post/${id}/comment`, 201, {
      as: bia,
      body: example('POST', '/post/{id}/comment'),
    });
    await call('POST', `/post/${UNKNOWN}/comment`, 404, { as: bia, body: { content: 'Hello?' } });
    const commentId = (comment.body as { id: string }).id;
    await call('DELETE', `/comment/${commentId}`, 403, { as: await t.createUser() });
    await call('DELETE', `/comment/${commentId}`, 204, { as: bia });
    await call('DELETE', `/comment/${commentId}`, 404, { as: bia });

    await call('POST', `/post/${id}/like`, 201, { as: bia });
    await call('POST', `/post/${id}/like`, 409, { as: bia });
    await call('DELETE', `/post/${id}/like`, 204, { as: bia });
    await call('DELETE', `/post/${id}/like`, 404, { as: bia });

    await call('POST', `/post/${id}/attendance`, 201, { as: bia });
    await call('POST', `/post/${id}/attendance`, 409, { as: bia });
    await call('POST', `/post/${generalId}/attendance`, 400, { as: bia });
    await call('DELETE', `/post/${id}/attendance`, 204, { as: bia });
    await call('DELETE', `/post/${id}/attendance`, 404, { as: bia });

    const report = example('POST', '/post/{id}/report');
    await call('POST', `/post/${id}/report`, 201, { as: bia, body: report });
    await call('POST', `/post/${id}/report`, 201, { as: admin, body: report });
    await call('POST', `/post/${id}/report`, 409, { as: bia, body: report });

    await call('DELETE', `/post/${id}`, 403, { as: bia });
    await call('DELETE', `/post/${id}`, 204, { as: ana });
    await call('DELETE', `/post/not-a-uuid`, 400, { as: ana });
    // Any method's body is parsed: a DELETE with a large one, or an unknown Content-Encoding.
    const json = { 'Content-Type': 'application/json' };
    await call('DELETE', `/post/${generalId}`, 413, {
      as: bia,
      headers: json,
      body: JSON.stringify({ x: 'a'.repeat(110_000) }),
    });
    await call('DELETE', `/post/${generalId}`, 415, {
      as: bia,
      headers: { ...json, 'Content-Encoding': 'compress' },
      body: '{}',
    });
  });
});

describe('groups', () => {
  it('groups, join requests, members and roles, following', async () => {
    const created = await call('POST', '/group', 201, {
      as: ana,
      body: example('POST', '/group', { name: `Atlética ${ana.nickname}` }),
    });
    const id = (created.body as { id: string }).id;
    await call('POST', '/group', 409, {
      as: bia,
      body: example('POST', '/group', { name: `ATLETICA ${ana.nickname}` }),
    });
    await call('POST', '/group', 400, { as: bia, body: { name: 'ab', groupType: 'OTHER' } });
    await call('GET', '/group?q=atletica', 200, { as: bia });
    await call('GET', '/group?mine=maybe', 400, { as: bia });
    await call('GET', `/group/${id}`, 200, { as: bia });
    await call('GET', `/group/${UNKNOWN}`, 404, { as: bia });
    await call('PATCH', `/group/${id}`, 200, { as: ana, body: example('PATCH', '/group/{id}') });
    await call('PATCH', `/group/${id}`, 403, { as: bia, body: { description: 'Mine now' } });
    await call('PATCH', `/group/${id}`, 403, { as: ana, body: { verified: true } });
    await call('PATCH', `/group/${id}`, 200, { as: admin, body: { acceptingNewMembers: true } });

    const asked = await call('POST', `/group/${id}/requests`, 201, { as: bia });
    const requestId = (asked.body as { id: string }).id;
    await call('POST', `/group/${id}/requests`, 409, { as: bia });
    await call('POST', `/group/${UNKNOWN}/requests`, 404, { as: bia });
    await call('GET', `/group/${id}/requests`, 200, { as: ana });
    await call('GET', `/group/${id}/requests`, 403, { as: bia });
    await call('POST', `/group/${id}/requests/${requestId}/approve`, 403, { as: bia });
    await call('POST', `/group/${id}/requests/${requestId}/approve`, 200, { as: ana });
    await call('POST', `/group/${id}/requests/${requestId}/reject`, 409, { as: ana });
    await call('DELETE', `/group/${id}/requests/mine`, 404, { as: bia });
    const other = await call('POST', `/group/${id}/requests`, 201, { as: admin });
    await call('POST', `/group/${id}/requests/${(other.body as { id: string }).id}/reject`, 200, {
      as: ana,
    });
    await call('POST', `/group/${id}/requests`, 201, { as: admin });
    await call('DELETE', `/group/${id}/requests/mine`, 204, { as: admin });

    await call('GET', `/group/${id}/members`, 200, { as: bia });
    await call('GET', `/group/${UNKNOWN}/members`, 404, { as: bia });
    await call('PATCH', `/group/${id}/members/${bia.id}`, 200, {
      as: ana,
      body: example('PATCH', '/group/{id}/members/{userId}'),
    });
    await call('PATCH', `/group/${id}/members/${ana.id}`, 409, {
      as: ana,
      body: { role: 'MEMBER' },
    });
    await call('PATCH', `/group/${id}/members/${ana.id}`, 403, {
      as: bia,
      body: { role: 'MEMBER' },
    });
    await call('DELETE', `/group/${id}/members/${ana.id}`, 409, { as: ana });
    await call('DELETE', `/group/${id}/members/${ana.id}`, 403, { as: bia });
    await call('DELETE', `/group/${id}/members/${bia.id}`, 204, { as: bia });

    await call('POST', `/group/${id}/follow`, 201, { as: bia });
    await call('POST', `/group/${id}/follow`, 409, { as: bia });
    await call('DELETE', `/group/${id}/follow`, 204, { as: bia });
    await call('DELETE', `/group/${id}/follow`, 404, { as: bia });

    await call('DELETE', `/group/${id}`, 403, { as: bia });
    await call('DELETE', `/group/${id}`, 204, { as: ana });
    await call('DELETE', `/group/${id}`, 404, { as: ana });
  });
});

describe('probes and the limits', () => {
  it('health, readiness, metrics', async () => {
    await call('GET', '/health', 200);
    await call('GET', '/ready', 200);
    await call('GET', '/metrics', 200);
    const down = await listen(
      createApp({
        services: t.services,
        logger: pino({ level: 'silent' }),
        ping: async () => false,
        metricsToken: 'metrics-secret',
      }),
    );
    await call('GET', '/ready', 503, { agent: down });
    await call('GET', '/metrics', 401, { agent: down });
  });

  it('429 with Retry-After and the RateLimit headers, on every operation', async () => {
    const store = postgresStore(createRateLimitService(t.db));
    const name = `oa_${Date.now()}`;
    const limited = await listen(
      createApp({
        services: createServices(t.db, testAuthConfig),
        logger: pino({ level: 'silent' }),
        ping: async () => true,
        rateLimits: {
          global: batchedLimiter(store, `g_${name}`, 3, 60, () => {}),
          auth: exactLimiter(store, name, 1, 86_400),
        },
      }),
    );
    // The authentication limit: one attempt, then 429; both answers carry the RateLimit headers.
    await call('POST', '/autenticacao/login', 401, {
      agent: limited,
      body: { email: ana.email, senha: 'wrong-password' },
    });
    await call('POST', '/autenticacao/login', 429, {
      agent: limited,
      body: { email: ana.email, senha: ana.password },
    });
    // The global ceiling is now reached for this address: every operation answers 429.
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of ['get', 'post', 'patch', 'delete'] as const) {
        if (!item[method]) continue;
        const url = path.replace(/\{[^}]+\}/g, (m) => (m === '{uf}' ? 'SP' : UNKNOWN));
        const body = ['post', 'patch'].includes(method) ? {} : undefined;
        await call(method.toUpperCase(), url, 429, { agent: limited, as: ana, body });
      }
    }
  });
});

describe('a database that cannot be reached', () => {
  it('503 with Retry-After on every operation that reads the database', async () => {
    // Nothing listens on port 1: every connection is refused at once.
    const gone = createDatabase({
      kind: 'postgres',
      url: 'postgres://x@127.0.0.1:1/x',
      connectTimeoutS: 1,
    });
    try {
      const down = await listen(
        createApp({
          services: createServices(gone.db, testAuthConfig),
          logger: pino({ level: 'silent' }),
          ping: async () => false,
          // As in production (REQUEST_TIMEOUT_MS): the feed's transactions otherwise take seconds
          // to give up on a refused connection (postgres.js retries it); the answer is the same.
          requestTimeoutMs: 1000,
        }),
      );
      const query: Record<string, string> = {
        '/autenticacao/alunos/nickname-disponivel': '?nickname=livre_123',
        '/autenticacao/alunos/email-disponivel': '?email=livre%40campus.test',
      };
      // All at once: each waits for its refused connection on its own.
      await Promise.all(
        restRoutes
          .filter((r) => !r.meta.staticList)
          .map((route) => {
            const template = route.meta.openapi!.path;
            const url = template.replace(/\{[^}]+\}/g, UNKNOWN) + (query[template] ?? '');
            return call(route.rest.method, url, 503, {
              agent: down,
              as: ana,
              body: route.rest.example,
            });
          }),
      );
    } finally {
      await gone.close();
    }
  });
});

describe('notifications and live streams', () => {
  /** Opens a REST event stream, waits for its first event (the current state), closes it. */
  async function stream(path: string, as: TestUser) {
    const opened = await openStream(`${t.baseUrl}${path}`, as.auth);
    expect(opened.response.status, path).toBe(200);
    expect(opened.response.headers.get('content-type'), path).toMatch(/^text\/event-stream/);
    await opened.next(1);
    await opened.close();
    // Each event was checked against the document by the test app's response check.
    const key = validator.operationOf('GET', path)!.key;
    seen.set(key, (seen.get(key) ?? new Set()).add(200));
  }

  it('the inbox, its unread count, reading, and the three streams', async () => {
    const post = await t.request
      .post('/post')
      .set(ana.auth)
      .send({ title: 'Inbox', type: 'GENERAL', author: ana.nickname, authorId: ana.id });
    await t.request.post(`/post/${post.body.id}/comment`).set(bia.auth).send({ content: 'Oi' });
    const inbox = await call('GET', '/notifications?unread=true', 200, { as: ana });
    const [first] = (inbox.body as { data: Array<{ id: string }> }).data;
    expect(first).toBeDefined();
    await call('GET', '/notifications?unread=maybe', 400, { as: ana });
    await call('GET', '/notifications/unread-count', 200, { as: ana });
    await call('PATCH', `/notifications/${first!.id}/read`, 200, { as: ana });
    await call('PATCH', `/notifications/${first!.id}/read`, 404, { as: bia });
    await call('POST', '/notifications/read-all', 200, { as: ana });

    const match = await t.request
      .post('/match')
      .set(ana.auth)
      .send(example('POST', '/match', { userId: ana.id }));
    expect(match.status).toBe(201);
    await stream('/notifications/stream', ana);
    await stream(`/match/${match.body.id}/stream`, bia);
    await stream(`/post/${post.body.id}/stream`, bia);
  });
});

describe('coverage', () => {
  it('every documented operation was answered with a success and with a failure', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
        if (!item[method]) continue;
        const key = `${method.toUpperCase()} ${path}`;
        const statuses = [...(seen.get(key) ?? [])];
        if (!statuses.some((s) => s < 400)) missing.push(`${key}: no success`);
        if (!statuses.some((s) => s >= 400 && s !== 429)) {
          // A static list and /health cannot fail but for the rate limit.
          const staticList = restRoutes.some(
            (r) => r.meta.staticList && r.meta.openapi!.path === path && !path.includes('{'),
          );
          if (!(staticList || path === '/health') || !statuses.includes(429))
            missing.push(`${key}: no failure`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
