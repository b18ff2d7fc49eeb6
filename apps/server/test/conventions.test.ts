import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWith } from './support/app';
import { generalBody } from './support/feed';
import { registration } from './support/students';

/** The protocol conventions API clients rely on (docs/contract/protocol.md). */

const ORIGIN = 'https://app.campus.test';
const {
  t,
  users: [user],
} = onTestAppWith({ corsOrigins: [ORIGIN] }, {});

describe('Location on 201', () => {
  it('names the created resource, which a GET then reads', async () => {
    const example = await t.request
      .post('/exemplos')
      .set(user.auth)
      .send({ nome: 'Exemplo', descricao: 'x' });
    expect(example.status).toBe(201);
    expect(example.headers.location).toBe(`/exemplos/${example.body.dados.id}`);
    await t.request
      .get(example.headers.location as string)
      .set(user.auth)
      .expect(200);

    const post = await t.request.post('/post').set(user.auth).send(generalBody(user));
    expect(post.status).toBe(201);
    expect(post.headers.location).toBe(`/post/${post.body.id}`);
    const like = await t.request.post(`/post/${post.body.id}/like`).set(user.auth);
    expect(like.status).toBe(201);
    expect(like.headers.location).toBe(`/post/${post.body.id}/like`);

    const student = await t.request.post('/autenticacao/cadastro').send(registration());
    expect(student.headers.location).toBe(`/admin/usuarios/${student.body.dados.id}`);
  });

  it('is absent on other answers', async () => {
    const list = await t.request.get('/exemplos').set(user.auth);
    expect(list.headers.location).toBeUndefined();
  });
});

describe('WWW-Authenticate on 401', () => {
  it('is sent over REST and /trpc, and not on a 403', async () => {
    const rest = await t.request.get('/exemplos');
    expectError(rest, 401, 'UNAUTHORIZED');
    expect(rest.headers['www-authenticate']).toBe('Bearer');
    const login = await t.request
      .post('/autenticacao/login')
      .send({ email: user.email, senha: 'wrong-password' });
    expect(login.status).toBe(401);
    expect(login.headers['www-authenticate']).toBe('Bearer');
    const trpc = await t.request.get('/trpc/examples.list?input=%7B%7D');
    expect(trpc.status).toBe(401);
    expect(trpc.headers['www-authenticate']).toBe('Bearer');
    const forbidden = await t.request.get('/admin/usuarios').set(user.auth);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['www-authenticate']).toBeUndefined();
  });
});

describe('CORS', () => {
  it('exposes the headers clients read, and lets a preflight be cached', async () => {
    const preflight = await t.request
      .options('/post')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(Number(preflight.headers['access-control-max-age'])).toBeGreaterThan(0);
    const answer = await t.request.get('/exemplos').set('Origin', ORIGIN).set(user.auth);
    const exposed = String(answer.headers['access-control-expose-headers'])
      .toLowerCase()
      .split(',');
    for (const header of [
      'x-request-id',
      'etag',
      'location',
      'retry-after',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ]) {
      expect(exposed).toContain(header);
    }
  });
});
