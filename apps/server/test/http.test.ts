import { describe, expect, it } from 'vitest';
import { expectError, onTestAppWith, postRaw } from './support/app';
import { loginAs } from './support/auth';

const {
  t,
  users: [user],
} = onTestAppWith({ corsOrigins: ['https://app.campus.test'] }, {});

describe('HTTP surface', () => {
  it('unknown paths get 404 and known paths another method 405 with Allow, in the error format, without a stack', async () => {
    expectError(await t.request.get('/does-not-exist'), 404, 'NOT_FOUND');
    const put = await t.request.put('/exemplos').set(user.auth).send({});
    expectError(put, 405, 'METHOD_NOT_SUPPORTED');
    expect(put.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    // /trpc keeps tRPC's own envelope (its clients expect it), with our code and no stack.
    const trpc = await t.request.get('/trpc/nope.nothing');
    expect(trpc.status).toBe(404);
    expect(trpc.body.error.data).toMatchObject({ appCode: 'NOT_FOUND' });
    expect(JSON.stringify(trpc.body)).not.toMatch(/stack|    at /);
  });

  it('malformed JSON → 400', async () => {
    const res = await postRaw(t, '/exemplos', user, 'application/json', '{"nome": ');
    expectError(res, 400, 'BAD_REQUEST');
  });

  it('a body over 100 kB → 413, and nothing is written', async () => {
    const res = await t.request
      .post('/exemplos')
      .set(user.auth)
      .send({ nome: 'Grande', descricao: 'x'.repeat(101 * 1024) });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a body that is not JSON → 415', async () => {
    const form = await t.request
      .post('/exemplos')
      .set(user.auth)
      .type('form')
      .send({ nome: 'Formulário' });
    expectError(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const text = await postRaw(t, '/exemplos', user, 'text/plain', 'nome=x');
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a trailing slash is optional', async () => {
    const a = await t.request.get('/exemplos/').set(user.auth);
    const b = await t.request.get('/exemplos').set(user.auth);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    const created = await t.request.post('/exemplos/').set(user.auth).send({ nome: 'Com barra' });
    expect(created.status).toBe(201);
    expect((await t.request.get(`/exemplos/${created.body.dados.id}/`).set(user.auth)).status).toBe(
      200,
    );
  });

  it('every response carries x-request-id, the client’s own when it sent a sane one', async () => {
    const fresh = await t.request.get('/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.request.get('/nope').set('x-request-id', 'trace-123');
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const unsafe = await t.request.get('/health').set('x-request-id', 'bad id\twith spaces');
    expect(unsafe.headers['x-request-id']).not.toContain(' ');
  });

  it('sends helmet’s security headers and no x-powered-by', async () => {
    const res = await t.request.get('/health');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('allows CORS only for configured origins', async () => {
    const allowed = await t.request
      .options('/exemplos')
      .set('Origin', 'https://app.campus.test')
      .set('Access-Control-Request-Method', 'POST');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.campus.test');
    const denied = await t.request.get('/health').set('Origin', 'https://evil.test');
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('/health and /ready', async () => {
    expect((await t.request.get('/health')).body).toEqual({ status: 'ok' });
    const ready = await t.request.get('/ready');
    expect(ready.status).toBe(200);
  });

  it('serves Swagger UI from local files at /docs', async () => {
    const page = await t.request.get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    const init = await t.request.get('/docs/swagger-initializer.js');
    expect(init.text).toContain("'/openapi.json'");
    expect((await t.request.get('/docs/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('a 204 has no body and no content type', async () => {
    const session = await loginAs(t, user);
    const res = await t.request
      .post('/autenticacao/sair')
      .set('Authorization', `Bearer ${session.body.dados.accessToken}`)
      .send({ refreshToken: session.body.dados.refreshToken });
    expect(res.status).toBe(204);
    expect(res.headers['content-type']).toBeUndefined();
  });
});

describe('REST adapter input', () => {
  it('does not coerce JSON body values: a string where a number belongs is a 400', async () => {
    const res = await t.request
      .post('/match')
      .set(user.auth)
      .send({
        userId: user.id,
        title: 'Pelada',
        maxPlayers: '10',
        MatchDate: new Date(Date.now() + 86_400_000).toISOString(),
        location: 'Quadra',
      });
    expect(expectError(res, 400, 'BAD_REQUEST').issues).toEqual([
      expect.objectContaining({ path: 'maxPlayers' }),
    ]);
  });

  it('an array or a scalar as the body is a 400, not a 500', async () => {
    expectError(
      await t.request
        .post('/exemplos')
        .set(user.auth)
        .send([{ nome: 'Lista' }]),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await postRaw(t, '/exemplos', user, 'application/json', '"texto"'),
      400,
      'BAD_REQUEST',
    );
  });

  it('path parameters win over body and query fields of the same name', async () => {
    const created = (
      await t.request.post('/exemplos').set(user.auth).send({ nome: 'Pelo caminho' })
    ).body.dados;
    const res = await t.request
      .get(`/exemplos/${created.id}?id=00000000-0000-4000-8000-000000000000`)
      .set(user.auth);
    expect(res.body.dados.id).toBe(created.id);
  });
});

describe('caching and docs files', () => {
  it('API answers say Cache-Control: no-store; the static lists keep their public caching', async () => {
    const login = await loginAs(t, user);
    expect(login.headers['cache-control']).toBe('no-store');
    expect((await t.request.get('/exemplos').set(user.auth)).headers['cache-control']).toBe(
      'no-store',
    );
    expect(
      (await t.request.post('/trpc/auth.login').send({ email: user.email, senha: user.password }))
        .headers['cache-control'],
    ).toBe('no-store');
    const states = await t.request.get('/autenticacao/alunos/localidades/estados');
    expect(states.headers['cache-control']).toContain('public');
  });

  it('/docs serves only the files of the page', async () => {
    expect((await t.request.get('/docs')).status).toBe(301);
    expect((await t.request.get('/docs/index.html')).status).toBe(200);
    for (const file of [
      'package.json',
      'README.md',
      'swagger-ui-bundle.js.map',
      '../package.json',
      'absolute-path.js',
    ]) {
      expect((await t.request.get(`/docs/${file}`)).status, file).toBe(404);
    }
  });
});
