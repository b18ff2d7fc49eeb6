import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, type TestUser, onTestApp, postRaw } from '../support/app';
import { matchBody } from '../support/matches';
import { generalBody } from '../support/feed';
import { registration } from '../support/students';
import { tableCounts } from './support';
import { createFixtures, type Fixtures } from './valid-requests';

/**
 * What generated bad input (fuzz.test.ts) found, each kept as a plain test of the requests that
 * showed it: every one of them was a 5xx or an accepted value before its fix.
 */
let t: TestApp;
let admin: TestUser;
let fixtures: Fixtures;
onTestApp(async (app) => {
  t = app;
  admin = await t.createUser({ perfil: 'ADMIN' });
  fixtures = await createFixtures(t, await t.createUser());
});

describe('findings of the fuzzer, kept', () => {
  // Was a bug (fixed in toHttpError: SQLSTATE 22021 is the client's input): a NUL character
  // (U+0000) in any free-text field passed validation and reached PostgreSQL, which refuses it
  // ("invalid byte sequence for encoding UTF8: 0x00"): the answer was a 500, not a 400. Every text field stored or searched is affected; the requests below are each one instance.
  const NUL = 'a\u0000b';
  it.each([
    [
      'POST /exemplos {nome}',
      () =>
        t.request
          .post('/exemplos')
          .set(admin.auth)
          .send({ nome: `abc${NUL}` }),
    ],
    [
      'POST /post {title}',
      () =>
        t.request
          .post('/post')
          .set(admin.auth)
          .send(generalBody(admin, { title: NUL })),
    ],
    [
      'PATCH /post/:id {content}',
      () => t.request.patch(`/post/${fixtures.post.id}`).set(admin.auth).send({ content: NUL }),
    ],
    [
      'POST /post/:id/comment {content}',
      () =>
        t.request.post(`/post/${fixtures.post.id}/comment`).set(admin.auth).send({ content: NUL }),
    ],
    [
      'POST /post/:id/report {reason}',
      () =>
        t.request.post(`/post/${fixtures.event.id}/report`).set(admin.auth).send({ reason: NUL }),
    ],
    [
      'POST /match {title}',
      () =>
        t.request
          .post('/match')
          .set(admin.auth)
          .send(matchBody(admin, { title: `abc${NUL}` })),
    ],
    [
      'PATCH /match/:id {location}',
      () => t.request.patch(`/match/${fixtures.match.id}`).set(admin.auth).send({ location: NUL }),
    ],
    [
      'POST /autenticacao/cadastro {nome}',
      () => t.request.post('/autenticacao/cadastro').send(registration({ nome: `Maria${NUL}` })),
    ],
    [
      'GET /admin/usuarios?busca=a%00b',
      () => t.request.get('/admin/usuarios?busca=a%00b').set(admin.auth),
    ],
  ] as const)('a NUL character in text → 400, not 500: %s', async (_name, send) => {
    const res = await send();
    expectError(res, 400, 'BAD_REQUEST');
  });

  // Was a bug (fixed by the own REST adapter, which never touches the schemas): number fields
  // accepted strings and one-element arrays. trpc-to-openapi's REST adapter set
  // `coerce` on every number schema of a procedure's input (coerceSchema, on the shared zod object)
  // at its first REST request, for bodies too: maxPlayers "10" or [10] is stored as 10. The schema
  // is shared, so from then on /trpc coerces as well. Requests: POST /match with maxPlayers "10",
  // with maxPlayers [10]; PATCH /match/:id {maxPlayers: "12"}; POST /trpc/matches.create likewise.
  it('number fields are numbers: maxPlayers "10" or [10] → 400, REST and /trpc', async () => {
    const counts = await tableCounts(t.db);
    for (const maxPlayers of ['10', [10]]) {
      expectError(
        await t.request.post('/match').set(admin.auth).send(matchBody(admin, { maxPlayers })),
        400,
        'BAD_REQUEST',
      );
      const viaTrpc = await t.request
        .post('/trpc/matches.create')
        .set(admin.auth)
        .send(matchBody(admin, { maxPlayers }));
      expect(viaTrpc.status).toBe(400);
    }
    expectError(
      await t.request
        .patch(`/match/${fixtures.match.id}`)
        .set(admin.auth)
        .send({ maxPlayers: '12' }),
      400,
      'BAD_REQUEST',
    );
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  // Were bugs: each of these answered 500.
  it.each([
    [
      'a path parameter with a bad percent-escape (%ZZ)',
      '/autenticacao/alunos/localidades/estados/%ZZ/cidades',
    ],
    [
      'a path parameter that is not UTF-8 (%C0%AF)',
      '/autenticacao/alunos/localidades/estados/%C0%AF/cidades',
    ],
  ] as const)('%s → 400 in the error format', async (_name, path) => {
    expectError(await t.request.get(path), 400, 'BAD_REQUEST');
  });

  it.each(['gzip', 'deflate', 'br'] as const)(
    'Content-Encoding: %s on a body that is not → 400; nothing is written',
    async (encoding) => {
      const counts = await tableCounts(t.db);
      const res = await t.request
        .post('/exemplos')
        .set(admin.auth)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send('{"nome":"plain"}');
      expectError(res, 400, 'BAD_REQUEST');
      expect(await tableCounts(t.db)).toEqual(counts);
    },
  );

  it('a truncated gzip body → 400, and a whole one is accepted', async () => {
    const { gzipSync } = await import('node:zlib');
    const whole = gzipSync(Buffer.from(JSON.stringify({ nome: 'comprimido' })));
    const send = (body: Buffer) =>
      fetch(`${t.baseUrl}/exemplos`, {
        method: 'POST',
        headers: { ...admin.auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body,
      });
    const truncated = await send(whole.subarray(0, whole.length - 6));
    expect(truncated.status).toBe(400);
    expect(await truncated.json()).toMatchObject({ code: 'BAD_REQUEST' });
    const ok = await send(whole);
    expect(ok.status, JSON.stringify(await ok.clone().json())).toBe(201);
  });

  it('/trpc parses bodies as REST does: a latin1 charset → 415, `true` for a page → 400, in tRPC’s envelope', async () => {
    const latin1 = await postRaw(
      t,
      '/trpc/examples.create',
      admin,
      'application/json; charset=latin1',
      '{"nome":"x"}',
    );
    expect(latin1.status).toBe(415);
    expect(latin1.body.error.data.appCode).toBe('UNSUPPORTED_MEDIA_TYPE');
    const rest = await postRaw(
      t,
      '/exemplos',
      admin,
      'application/json; charset=latin1',
      '{"nome":"x"}',
    );
    expectError(rest, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const page = await t.request
      .get(`/trpc/examples.list?input=${encodeURIComponent('{"page":true}')}`)
      .set(admin.auth);
    expect(page.status).toBe(400);
    expect(page.body.error.data.issues).toEqual([{ path: 'page', message: expect.any(String) }]);
  });
});
