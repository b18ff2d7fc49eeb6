import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { registerStudentInput, users } from '@campus/core';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, onTestApp } from '../support/app';
import { isoDay, registration } from '../support/students';

/** Registration that succeeds, the duplicates it refuses (one at a time and at once), the service's errors. Its validation: registration-validation.test.ts. */
let t: TestApp;
onTestApp((app) => (t = app));

const register = (body: unknown) => t.request.post('/autenticacao/cadastro').send(body as object);
const rowByEmail = async (email: string) =>
  (await t.db.select().from(users).where(eq(users.email, email)))[0];

describe('POST /autenticacao/cadastro: success', () => {
  it('creates an ATIVO ALUNO and answers 201 with exactly the student fields', async () => {
    const body = registration();
    const res = await register(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      mensagem: expect.any(String),
      dados: {
        id: expect.any(String),
        nome: body.nome,
        nickname: body.nickname,
        email: body.email,
        papel: 'ALUNO',
        status: 'ATIVO',
      },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|senha-forte|passwordHash/);
    const row = await rowByEmail(body.email);
    expect(row).toMatchObject({
      id: res.body.dados.id,
      perfil: 'ALUNO',
      status: 'ATIVO',
      dataNascimento: '2003-05-17',
    });
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
  });

  it('stores e-mail lower-case, estado upper-case, cidade in the official spelling, escolaridade as code, nome trimmed', async () => {
    const base = registration();
    const res = await register({
      ...base,
      nome: '  Maria   Souza ',
      email: `  ${base.email.toUpperCase()} `,
      estado: 'sp',
      cidade: 'sao paulo',
      escolaridade: 'Ensino Médio',
    });
    expect(res.status).toBe(201);
    expect(res.body.dados.email).toBe(base.email);
    const row = await rowByEmail(base.email);
    expect(row).toMatchObject({
      nome: 'Maria   Souza',
      email: base.email,
      estado: 'SP',
      cidade: 'São Paulo',
      escolaridade: 'ENSINO_MEDIO',
      instituicao: base.instituicao,
      curso: base.curso,
      periodo: base.periodo,
      nacionalidade: 'Brasileira',
    });
  });

  it.each([
    ['MG', 'SAO JOAO DEL-REI', 'São João del Rei'],
    ['al', 'olho d’agua das flores', "Olho d'Água das Flores"],
    ['RN', 'governador dix sept rosado', 'Governador Dix-Sept Rosado'],
    ['df', 'brasilia', 'Brasília'],
  ])('matches %s / "%s" to "%s"', async (estado, cidade, official) => {
    const body = registration({ estado, cidade });
    expect((await register(body)).status).toBe(201);
    expect((await rowByEmail(body.email))!.cidade).toBe(official);
  });

  it('accepts the escolaridade by its code', async () => {
    const body = registration({ escolaridade: 'POS_GRADUACAO' });
    expect((await register(body)).status).toBe(201);
    expect((await rowByEmail(body.email))!.escolaridade).toBe('POS_GRADUACAO');
  });

  it.each([
    ['nome of 120 characters', { nome: 'n'.repeat(120) }],
    ['nickname of 3 characters', { nickname: `a${randomBytes(1).toString('hex')}` }],
    [
      'nickname of 30 characters with digits and _',
      { nickname: `a_${Date.now()}`.padEnd(30, '9') },
    ],
    ['senha of exactly 8 characters', { senha: '12345678', confirmacaoSenha: '12345678' }],
    ['senha of 128 characters', { senha: 's'.repeat(128), confirmacaoSenha: 's'.repeat(128) }],
    ['a leap day', { dataNascimento: '2004-02-29' }],
    ['1900-01-01', { dataNascimento: '1900-01-01' }],
    ['today', { dataNascimento: isoDay(0) }],
    [
      'instituição, curso and período as free text',
      { instituicao: 'Escola X', curso: 'Curso livre', periodo: 'Não se aplica' },
    ],
  ])('accepts %s', async (_rule, override) => {
    const res = await register(registration(override));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('a registered student can log in', async () => {
    const body = registration();
    expect((await register(body)).status).toBe(201);
    const login = await t.request
      .post('/autenticacao/login')
      .send({ email: body.email.toUpperCase(), senha: body.senha });
    expect(login.status).toBe(200);
    expect(login.body.dados.usuario).toMatchObject({
      nickname: body.nickname,
      email: body.email,
      perfil: 'ALUNO',
      status: 'ATIVO',
    });
    const me = await t.request
      .get('/autenticacao/usuario-atual')
      .set('Authorization', `Bearer ${login.body.dados.accessToken}`);
    expect(me.status).toBe(200);
  });
});

describe('POST /autenticacao/cadastro: duplicates', () => {
  it('an e-mail in use, in any case → 409 EMAIL_IN_USE', async () => {
    const first = registration();
    expect((await register(first)).status).toBe(201);
    const res = await register(registration({ email: first.email.toUpperCase() }));
    expect(expectError(res, 409, 'CONFLICT').reason).toBe('EMAIL_IN_USE');
  });

  it('a nickname in use → 409 NICKNAME_IN_USE', async () => {
    const first = registration();
    expect((await register(first)).status).toBe(201);
    const res = await register(registration({ nickname: first.nickname }));
    expect(expectError(res, 409, 'CONFLICT').reason).toBe('NICKNAME_IN_USE');
  });

  it('the same registration sent 10 times at once → exactly one 201 and nine 409', async () => {
    const body = registration();
    const responses = await Promise.all(Array.from({ length: 10 }, () => register(body)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const conflicts = responses.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(9);
    for (const r of conflicts) expect(['EMAIL_IN_USE', 'NICKNAME_IN_USE']).toContain(r.body.reason);
    expect(await t.db.select().from(users).where(eq(users.nickname, body.nickname))).toHaveLength(
      1,
    );
  });

  it('one e-mail in ten different cases at once → one 201, nine EMAIL_IN_USE', async () => {
    const email = registration().email;
    const variants = Array.from({ length: 10 }, (_, i) =>
      [...email].map((ch, k) => ((k + i) % 3 === 0 ? ch.toUpperCase() : ch)).join(''),
    );
    const responses = await Promise.all(
      variants.map((variant) => register(registration({ email: variant }))),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const conflicts = responses.filter((r) => r.status === 409);
    expect(conflicts.map((r) => r.body.reason)).toEqual(Array(9).fill('EMAIL_IN_USE'));
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('one nickname with ten e-mails at once → one 201, nine NICKNAME_IN_USE', async () => {
    const nickname = registration().nickname;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => register(registration({ nickname }))),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).map((r) => r.body.reason)).toEqual(
      Array(9).fill('NICKNAME_IN_USE'),
    );
  });
});

describe('student service', () => {
  it('a failed insert does not carry the password hash (or any bound value) in its error', async () => {
    // Bypasses the schema's limits so the database itself refuses the row (nome is varchar(120)).
    const input = registerStudentInput.parse(registration());
    const error = await t.services.students
      .register({ ...input, nome: 'n'.repeat(200) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const text = `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).cause ?? '')}`;
    expect(text).not.toMatch(/scrypt|senha-forte|n{200}/);
    expect((error as Error).message).toMatch(/too long|longo/i);
  });
});
