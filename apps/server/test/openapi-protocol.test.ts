import { createRateLimitService, createServices } from '@campus/core';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { batchedLimiter, exactLimiter } from '../src/rate-limit/limiter';
import { postgresStore } from '../src/rate-limit/store';
import { testAuthConfig } from './support/app';
import { UNKNOWN, documentedOperations, example, onWalk } from './support/openapi-walk';

/**
 * The protocol statuses of the OpenAPI response walk (see openapi-responses.test.ts), each answer
 * checked against the document: 304 on If-None-Match, 413 too large, 415 unsupported media type
 * or encoding, 422 an Idempotency-Key reused with another body, 429 on every operation.
 */
const w = onWalk();
const { call } = w;

describe('conditional requests', () => {
  it('static lists: 200, 304 on If-None-Match, trailing slash', async () => {
    for (const path of [
      '/autenticacao/alunos/nacionalidades',
      '/autenticacao/alunos/opcoes-academicas',
      '/autenticacao/alunos/localidades/estados',
      '/autenticacao/alunos/localidades/estados/sp/cidades',
      '/match/sports',
    ]) {
      const first = await call('GET', path, 200);
      await call('GET', `${path}/`, 304, {
        headers: { 'If-None-Match': first.headers.etag as string },
      });
    }
  });
});

describe('request bodies', () => {
  const json = { 'Content-Type': 'application/json' };

  it('413 and 415 on login', async () => {
    await call('POST', '/autenticacao/login', 415, {
      headers: { 'Content-Type': 'text/plain' },
      body: 'email=ana',
    });
    await call('POST', '/autenticacao/login', 413, {
      headers: json,
      body: JSON.stringify({ email: 'a'.repeat(110_000) }),
    });
  });

  it("any method's body is parsed: a DELETE with a large one, or an unknown Content-Encoding", async () => {
    const general = await call('POST', '/post', 201, {
      as: w.bia,
      body: { title: 'Study group', type: 'GENERAL', author: w.bia.nickname, authorId: w.bia.id },
    });
    const generalId = (general.body as { id: string }).id;
    await call('DELETE', `/post/${generalId}`, 413, {
      as: w.bia,
      headers: json,
      body: JSON.stringify({ x: 'a'.repeat(110_000) }),
    });
    await call('DELETE', `/post/${generalId}`, 415, {
      as: w.bia,
      headers: { ...json, 'Content-Encoding': 'compress' },
      body: '{}',
    });
  });

  it('Idempotency-Key: the replay is marked, another body with the same key is 422', async () => {
    const body = example('POST', '/exemplos');
    const key = { 'Idempotency-Key': `k-${UNKNOWN}` };
    await call('POST', '/exemplos', 201, { as: w.ana, body, headers: key });
    const replay = await call('POST', '/exemplos', 201, { as: w.ana, body, headers: key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    await call('POST', '/exemplos', 422, {
      as: w.ana,
      body: { nome: 'Outro exemplo' },
      headers: key,
    });
  });
});

describe('the limits', () => {
  it('429 with Retry-After and the RateLimit headers, on every operation', async () => {
    const store = postgresStore(createRateLimitService(w.t.db));
    const name = `oa_${Date.now()}`;
    const limited = await w.listen(
      createApp({
        services: createServices(w.t.db, testAuthConfig),
        logger: pino({ level: 'silent' }),
        ping: async () => true,
        rateLimits: {
          global: batchedLimiter(store, `g_${name}`, 3, 86_400, () => {}),
          auth: exactLimiter(store, name, 1, 86_400),
        },
      }),
    );
    // The authentication limit: one attempt, then 429; both answers carry the RateLimit headers.
    await call('POST', '/autenticacao/login', 401, {
      agent: limited,
      body: { email: w.ana.email, senha: 'wrong-password' },
    });
    await call('POST', '/autenticacao/login', 429, {
      agent: limited,
      body: { email: w.ana.email, senha: w.ana.password },
    });
    // The global ceiling is now reached for this address: every operation answers 429.
    const operations = documentedOperations(['get', 'post', 'patch', 'put', 'delete']);
    for (const [method, path] of operations) {
      const url = path.replace(/\{[^}]+\}/g, (m) => (m === '{uf}' ? 'SP' : UNKNOWN));
      const body = ['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined;
      await call(method, url, 429, { agent: limited, as: w.ana, body });
    }
    // What openapi-responses' coverage relies on for the operations that cannot otherwise fail.
    expect(documentedOperations().filter(([m, p]) => !w.seen.get(`${m} ${p}`)?.has(429))).toEqual(
      [],
    );
  });
});
