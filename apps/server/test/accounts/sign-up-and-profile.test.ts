import { refreshTokens, users } from '@campus/core';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHelpers } from '../support/admin';
import { expectError, type TestApp, type TestUser } from '../support/app';
import { login, loginAs, refresh, meAnswersWithinASecond } from '../support/auth';
import { startTestAppWithMail, type MailServer } from '../support/mail';

/** Teacher sign-up with approval (by e-mail), password change and profile edit. */
let t: TestApp;
let smtp: MailServer;
let admin: TestUser;
beforeAll(async () => {
  ({ t, smtp } = await startTestAppWithMail({ appUrl: 'https://campus.test/' }));
  admin = await t.createUser({ perfil: 'ADMIN' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});
const { patchStatus } = adminHelpers(() => t);

const teacher = (overrides: Record<string, unknown> = {}) => ({
  nome: 'João Pereira',
  nickname: `prof_${Math.random().toString(36).slice(2, 10)}`,
  email: `prof.${Math.random().toString(36).slice(2, 10)}@campus.test`,
  senha: 'senha-forte-123',
  confirmacaoSenha: 'senha-forte-123',
  instituicao: 'Universidade de Brasília (UnB)',
  departamento: 'Departamento de Física',
  siape: '1234567',
  ...overrides,
});

describe('POST /autenticacao/cadastro/professor', () => {
  it('creates a PENDENTE PROFESSOR who cannot sign in until an ADMIN approves, and is told by e-mail', async () => {
    const body = teacher();
    const res = await t.request.post('/autenticacao/cadastro/professor').send(body);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/admin/usuarios/${res.body.dados.id}`);
    expect(res.body.dados).toMatchObject({
      papel: 'PROFESSOR',
      status: 'PENDENTE',
      email: body.email,
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, res.body.dados.id));
    expect(row).toMatchObject({ departamento: 'Departamento de Física', siape: '1234567' });

    const refused = await login(t, body.email, body.senha);
    expect(expectError(refused, 403, 'FORBIDDEN').reason).toBe('ACCOUNT_PENDING');

    expect((await patchStatus(admin.auth, res.body.dados.id, 'ATIVO')).status).toBe(200);
    const mail = await smtp.waitFor(body.email);
    expect(mail.subject).toBe('Cadastro de professor aprovado');
    expect(mail.text).toContain('https://campus.test/entrar');
    expect((await login(t, body.email, body.senha)).status).toBe(200);
  });

  it('checks every field and refuses a taken e-mail or nickname', async () => {
    const res = await t.request
      .post('/autenticacao/cadastro/professor')
      .send(teacher({ siape: '12345', departamento: '', confirmacaoSenha: 'outra-coisa' }));
    const issues = expectError(res, 400, 'BAD_REQUEST').issues as { path: string }[];
    expect(issues.map((i) => i.path).sort()).toEqual(['confirmacaoSenha', 'departamento', 'siape']);
    const body = teacher();
    await t.request.post('/autenticacao/cadastro/professor').send(body).expect(201);
    const again = await t.request
      .post('/autenticacao/cadastro/professor')
      .send(teacher({ email: body.email }));
    expect(expectError(again, 409, 'CONFLICT').reason).toBe('EMAIL_IN_USE');
  });
});

describe('PATCH /autenticacao/senha', () => {
  it('needs the current password; the other sessions end, this one stays through its refresh token', async () => {
    const user = await t.createUser();
    const mine = (await loginAs(t, user)).body.dados;
    const elsewhere = (await loginAs(t, user)).body.dados;
    const change = (senhaAtual: string) =>
      t.request
        .patch('/autenticacao/senha')
        .set('Authorization', `Bearer ${mine.accessToken}`)
        .send({ senhaAtual, novaSenha: 'nova-senha-forte-9' });
    expect(expectError(await change('errada-123456'), 403, 'FORBIDDEN').reason).toBe(
      'WRONG_PASSWORD',
    );
    // Tokens carry whole seconds (`iat`): one of the change's own second still passes.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await change(user.password)).status).toBe(204);
    expectError(await refresh(t, elsewhere.refreshToken), 401, 'UNAUTHORIZED');
    // Every access token issued before the change ends, this session's too; its refresh token
    // was kept, so one refresh gives it a token that works.
    await meAnswersWithinASecond(t, mine.accessToken, 401);
    const stale = await t.request
      .get('/autenticacao/usuario-atual')
      .set('Authorization', `Bearer ${mine.accessToken}`);
    expect(expectError(stale, 401, 'UNAUTHORIZED').reason).toBe('TOKEN_INVALID');
    const renewed = await refresh(t, mine.refreshToken);
    expect(renewed.status).toBe(200);
    await t.request
      .get('/autenticacao/usuario-atual')
      .set('Authorization', `Bearer ${renewed.body.dados.accessToken}`)
      .expect(200);
    expect((await login(t, user.email, 'nova-senha-forte-9')).status).toBe(200);
    const live = await t.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt)));
    expect(live).toHaveLength(2);
  });
});

describe('PATCH /autenticacao/usuario-atual', () => {
  it('edits the registration fields with the registration rules', async () => {
    const user = await t.createUser();
    const res = await t.request
      .patch('/autenticacao/usuario-atual')
      .set(user.auth)
      .send({ nome: 'Nome Novo', curso: 'Física', estado: 'sp', cidade: 'sao paulo' });
    expect(res.status).toBe(200);
    expect(res.body.dados).toMatchObject({
      id: user.id,
      nome: 'Nome Novo',
      curso: 'Física',
      estado: 'SP',
      cidade: 'São Paulo',
    });
    const bad = await t.request
      .patch('/autenticacao/usuario-atual')
      .set(user.auth)
      .send({ cidade: 'Campinas' });
    expectError(bad, 400, 'BAD_REQUEST');
    expectError(
      await t.request.patch('/autenticacao/usuario-atual').set(user.auth).send({}),
      400,
      'BAD_REQUEST',
    );
    const wrongCity = await t.request
      .patch('/autenticacao/usuario-atual')
      .set(user.auth)
      .send({ estado: 'DF', cidade: 'Campinas' });
    expect(expectError(wrongCity, 400, 'BAD_REQUEST').issues).toEqual([
      { path: 'cidade', message: 'não é um município de DF' },
    ]);
  });
});
