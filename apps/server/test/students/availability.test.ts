import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, onTestApp } from '../support/app';
import { registration } from '../support/students';

let t: TestApp;
onTestApp((app) => (t = app));

const nicknameCheck = (nickname?: string) =>
  t.request
    .get('/autenticacao/alunos/nickname-disponivel')
    .query(nickname === undefined ? {} : { nickname });
const emailCheck = (email?: string) =>
  t.request
    .get('/autenticacao/alunos/email-disponivel')
    .query(email === undefined ? {} : { email });

describe('GET /autenticacao/alunos/nickname-disponivel', () => {
  it('is available before registration and taken after it', async () => {
    const body = registration();
    const before = await nicknameCheck(body.nickname);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      mensagem: expect.any(String),
      dados: { nickname: body.nickname, disponivel: true },
    });
    expect((await t.request.post('/autenticacao/cadastro').send(body)).status).toBe(201);
    const after = await nicknameCheck(body.nickname);
    expect(after.body.dados).toEqual({ nickname: body.nickname, disponivel: false });
  });

  it('sees accounts not made by registration too', async () => {
    const user = await t.createUser();
    expect((await nicknameCheck(user.nickname)).body.dados.disponivel).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['too short', 'ab'],
    ['upper case', 'Maria'],
    ['starting with a digit', '9maria'],
    ['too long', 'a'.repeat(31)],
  ])('a nickname %s → 400', async (_case, nickname) => {
    const error = expectError(await nicknameCheck(nickname), 400, 'BAD_REQUEST');
    expect(error.issues).toEqual([{ path: 'nickname', message: expect.any(String) }]);
  });
});

describe('GET /autenticacao/alunos/email-disponivel', () => {
  it('is available before registration and taken after it, in any case', async () => {
    const body = registration();
    const before = await emailCheck(body.email.toUpperCase());
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      mensagem: expect.any(String),
      dados: { email: body.email, disponivel: true },
    });
    expect((await t.request.post('/autenticacao/cadastro').send(body)).status).toBe(201);
    for (const variant of [
      body.email,
      body.email.toUpperCase(),
      `  ${body.email.replace(/^m/, 'M')} `,
    ]) {
      const after = await emailCheck(variant);
      expect(after.status).toBe(200);
      expect(after.body.dados).toEqual({ email: body.email, disponivel: false });
    }
  });

  it('a registration given in upper case is found by the lower-case check', async () => {
    const body = registration();
    expect(
      (
        await t.request
          .post('/autenticacao/cadastro')
          .send({ ...body, email: body.email.toUpperCase() })
      ).status,
    ).toBe(201);
    expect((await emailCheck(body.email)).body.dados.disponivel).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['without @', 'maria.campus.test'],
    ['without domain', 'maria@'],
    ['empty', ''],
  ])('an e-mail %s → 400', async (_case, email) => {
    const error = expectError(await emailCheck(email), 400, 'BAD_REQUEST');
    expect(error.issues).toEqual([{ path: 'email', message: expect.any(String) }]);
  });
});
