import { count } from 'drizzle-orm';
import { users } from '@campus/core';
import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, onTestApp } from '../support/app';
import { isoDay, registration } from '../support/students';

/** Registration's validation: each rule refused on its own, all of them at once, in Portuguese. */
let t: TestApp;
onTestApp((app) => (t = app));

const register = (body: unknown) => t.request.post('/autenticacao/cadastro').send(body as object);
const userCount = async () => (await t.db.select({ n: count() }).from(users))[0]!.n;

describe('POST /autenticacao/cadastro: one rule, one test', () => {
  // Each case breaks exactly one rule; the answer must name exactly that field, once.
  it.each<[string, Record<string, unknown>, string]>([
    ['nome missing', { nome: undefined }, 'nome'],
    ['nome empty', { nome: '' }, 'nome'],
    ['nome only spaces', { nome: '   ' }, 'nome'],
    ['nome over 120', { nome: 'n'.repeat(121) }, 'nome'],
    ['nome not a string', { nome: 42 }, 'nome'],
    ['nickname missing', { nickname: undefined }, 'nickname'],
    ['nickname under 3', { nickname: 'ab' }, 'nickname'],
    ['nickname over 30', { nickname: 'a'.repeat(31) }, 'nickname'],
    ['nickname starting with a digit', { nickname: '1maria' }, 'nickname'],
    ['nickname starting with _', { nickname: '_maria' }, 'nickname'],
    ['nickname with upper case', { nickname: 'Maria' }, 'nickname'],
    ['nickname with a hyphen', { nickname: 'maria-silva' }, 'nickname'],
    ['nickname with an accent', { nickname: 'joão' }, 'nickname'],
    ['email missing', { email: undefined }, 'email'],
    ['email malformed', { email: 'maria.campus.test' }, 'email'],
    ['email over 254', { email: `${'m'.repeat(250)}@campus.test` }, 'email'],
    ['senha missing', { senha: undefined }, 'senha'],
    ['senha under 8', { senha: '1234567', confirmacaoSenha: '1234567' }, 'senha'],
    ['senha over 128', { senha: 's'.repeat(129), confirmacaoSenha: 's'.repeat(129) }, 'senha'],
    ['confirmacaoSenha missing', { confirmacaoSenha: undefined }, 'confirmacaoSenha'],
    [
      'confirmacaoSenha different from senha',
      { confirmacaoSenha: 'outra-senha-123' },
      'confirmacaoSenha',
    ],
    ['instituicao empty', { instituicao: '' }, 'instituicao'],
    ['instituicao over 160', { instituicao: 'i'.repeat(161) }, 'instituicao'],
    ['curso empty', { curso: ' ' }, 'curso'],
    ['curso over 120', { curso: 'c'.repeat(121) }, 'curso'],
    ['periodo empty', { periodo: '' }, 'periodo'],
    ['periodo over 40', { periodo: 'p'.repeat(41) }, 'periodo'],
    ['dataNascimento missing', { dataNascimento: undefined }, 'dataNascimento'],
    ['dataNascimento not yyyy-mm-dd', { dataNascimento: '17/05/2003' }, 'dataNascimento'],
    ['dataNascimento without zero padding', { dataNascimento: '2003-5-7' }, 'dataNascimento'],
    ['dataNascimento with a time', { dataNascimento: '2003-05-17T00:00:00Z' }, 'dataNascimento'],
    ['dataNascimento 30 February', { dataNascimento: '2023-02-30' }, 'dataNascimento'],
    [
      'dataNascimento 29 February of a common year',
      { dataNascimento: '2023-02-29' },
      'dataNascimento',
    ],
    ['dataNascimento month 13', { dataNascimento: '2003-13-01' }, 'dataNascimento'],
    ['dataNascimento in the future', { dataNascimento: isoDay(2) }, 'dataNascimento'],
    ['dataNascimento before 1900', { dataNascimento: '1899-12-31' }, 'dataNascimento'],
    ['nacionalidade empty', { nacionalidade: '' }, 'nacionalidade'],
    ['nacionalidade over 80', { nacionalidade: 'n'.repeat(81) }, 'nacionalidade'],
    ['estado missing', { estado: undefined }, 'estado'],
    ['estado not a UF', { estado: 'XX' }, 'estado'],
    ['estado given by name', { estado: 'São Paulo' }, 'estado'],
    ['cidade missing', { cidade: undefined }, 'cidade'],
    ['cidade empty', { cidade: '' }, 'cidade'],
    ['cidade over 100', { cidade: 'c'.repeat(101) }, 'cidade'],
    ['cidade of another UF', { estado: 'RJ', cidade: 'Campinas' }, 'cidade'],
    ['cidade that does not exist', { estado: 'SP', cidade: 'Atlântida' }, 'cidade'],
    ['escolaridade missing', { escolaridade: undefined }, 'escolaridade'],
    ['escolaridade not listed', { escolaridade: 'Superior completo' }, 'escolaridade'],
    ['escolaridade code in lower case', { escolaridade: 'ensino_medio' }, 'escolaridade'],
  ])('%s → 400 on that field', async (_rule, override, path) => {
    const before = await userCount();
    const error = expectError(await register(registration(override)), 400, 'BAD_REQUEST');
    expect(error.issues).toEqual([{ path, message: expect.any(String) }]);
    expect(await userCount()).toBe(before);
  });

  it('reports every bad field at once, cross-field rules included', async () => {
    const res = await register({
      nome: '',
      nickname: 'X',
      email: 'nope',
      senha: 'curta',
      confirmacaoSenha: 'outra',
      instituicao: '',
      curso: '',
      periodo: '',
      dataNascimento: '2023-02-30',
      nacionalidade: '',
      estado: 'sp',
      cidade: 'Niterói',
      escolaridade: 'Nenhuma',
    });
    const error = expectError(res, 400, 'BAD_REQUEST');
    const paths = error.issues!.map((issue) => (issue as { path: string }).path);
    expect(paths.sort()).toEqual(
      [
        'nome',
        'nickname',
        'email',
        'senha',
        'confirmacaoSenha',
        'instituicao',
        'curso',
        'periodo',
        'dataNascimento',
        'nacionalidade',
        'cidade',
        'escolaridade',
      ].sort(),
    );
  });

  it('an empty body names every required field', async () => {
    const error = expectError(await register({}), 400, 'BAD_REQUEST');
    expect(error.issues).toHaveLength(13);
  });

  it('messages are in Portuguese', async () => {
    const error = expectError(
      await register(registration({ confirmacaoSenha: 'x' })),
      400,
      'BAD_REQUEST',
    );
    expect(error.issues).toEqual([{ path: 'confirmacaoSenha', message: 'deve ser igual à senha' }]);
    const uf = expectError(
      await register(registration({ estado: 'RJ', cidade: 'Campinas' })),
      400,
      'BAD_REQUEST',
    );
    expect(uf.issues).toEqual([{ path: 'cidade', message: 'não é um município de RJ' }]);
  });
});
