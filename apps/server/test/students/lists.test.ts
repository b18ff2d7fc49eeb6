import { describe, expect, it } from 'vitest';
import { expectError, type TestApp, onTestApp } from '../support/app';

let t: TestApp;
onTestApp((app) => (t = app));

const inPortugueseOrder = (list: string[]) => {
  const order = new Intl.Collator('pt-BR').compare;
  return list.every((item, i) => i === 0 || order(list[i - 1]!, item) <= 0);
};
/** The plain JSON form (supertest would otherwise ask for gzip); compression: lists-caching.test.ts. */
const get = (path: string) => t.request.get(path).set('Accept-Encoding', 'identity');
const BASE = '/autenticacao/alunos';

describe('GET /autenticacao/alunos/nacionalidades', () => {
  it('"Brasileira" first, then at least 190 more in Portuguese order, no repeats', async () => {
    const res = await get(`${BASE}/nacionalidades`);
    expect(res.status).toBe(200);
    const dados: string[] = res.body.dados;
    expect(res.body.mensagem).toEqual(expect.any(String));
    expect(dados.length).toBeGreaterThanOrEqual(190);
    expect(dados[0]).toBe('Brasileira');
    expect(dados.indexOf('Brasileira', 1)).toBe(-1);
    expect(inPortugueseOrder(dados.slice(1))).toBe(true);
    expect(new Set(dados).size).toBe(dados.length);
    expect(dados).toEqual(
      expect.arrayContaining(['Portuguesa', 'Argentina', 'Angolana', 'Japonesa']),
    );
  });
});

describe('GET /autenticacao/alunos/opcoes-academicas', () => {
  it('lists the escolaridades in order, ≥ 140 instituições and cursos, 12 períodos and "Não se aplica"', async () => {
    const res = await get(`${BASE}/opcoes-academicas`);
    expect(res.status).toBe(200);
    const { escolaridades, instituicoes, cursos, periodos, naoSeAplica } = res.body.dados;
    expect(escolaridades).toEqual([
      'Ensino Fundamental',
      'Ensino Médio',
      'Ensino Técnico',
      'Graduação',
      'Pós-graduação',
      'Mestrado',
      'Doutorado',
      'Outro',
    ]);
    expect(instituicoes.length).toBeGreaterThanOrEqual(140);
    for (const instituicao of instituicoes) expect(instituicao).toMatch(/^\S.* \([^()]+\)$/);
    expect(instituicoes).toEqual(
      expect.arrayContaining(['Universidade de Brasília (UnB)', 'Universidade de São Paulo (USP)']),
    );
    expect(new Set(instituicoes).size).toBe(instituicoes.length);
    expect(cursos.length).toBeGreaterThanOrEqual(140);
    expect(new Set(cursos).size).toBe(cursos.length);
    expect(inPortugueseOrder(cursos)).toBe(true);
    expect(cursos).toEqual(
      expect.arrayContaining(['Ciência da Computação', 'Medicina', 'Direito']),
    );
    expect(periodos).toHaveLength(12);
    expect(periodos[0]).toBe('1º período');
    expect(periodos[11]).toBe('12º período');
    expect(naoSeAplica).toBe('Não se aplica');
  });
});

describe('GET /autenticacao/alunos/localidades/estados', () => {
  it('all 27 states with accented names, in Portuguese order', async () => {
    const res = await get(`${BASE}/localidades/estados`);
    expect(res.status).toBe(200);
    const dados: { sigla: string; nome: string }[] = res.body.dados;
    expect(dados).toHaveLength(27);
    expect(new Set(dados.map((e) => e.sigla)).size).toBe(27);
    for (const estado of dados) expect(Object.keys(estado).sort()).toEqual(['nome', 'sigla']);
    expect(dados).toEqual(
      expect.arrayContaining([
        { sigla: 'SP', nome: 'São Paulo' },
        { sigla: 'PI', nome: 'Piauí' },
        { sigla: 'DF', nome: 'Distrito Federal' },
      ]),
    );
    expect(inPortugueseOrder(dados.map((e) => e.nome))).toBe(true);
  });
});

describe('GET /autenticacao/alunos/localidades/estados/:uf/cidades', () => {
  const cities = (uf: string) =>
    get(`${BASE}/localidades/estados/${encodeURIComponent(uf)}/cidades`);

  it.each([
    ['SP', 645],
    ['MG', 853],
    ['RJ', 92],
    ['RR', 15],
  ])('%s has %i municipalities', async (uf, count) => {
    const res = await cities(uf);
    expect(res.status).toBe(200);
    expect(res.body.dados).toHaveLength(count);
    expect(res.body.dados.every((c: { uf: string }) => c.uf === uf)).toBe(true);
  });

  it('DF has only Brasília', async () => {
    expect((await cities('DF')).body.dados).toEqual([{ nome: 'Brasília', uf: 'DF' }]);
  });

  it('5,571 municipalities in all, accented, in Portuguese order within each state', async () => {
    const estados: { sigla: string }[] = (await get(`${BASE}/localidades/estados`)).body.dados;
    let total = 0;
    for (const { sigla } of estados) {
      const names: string[] = (await cities(sigla)).body.dados.map((c: { nome: string }) => c.nome);
      expect(inPortugueseOrder(names), sigla).toBe(true);
      expect(new Set(names).size, sigla).toBe(names.length);
      total += names.length;
    }
    expect(total).toBe(5571);
    const sp: string[] = (await cities('SP')).body.dados.map((c: { nome: string }) => c.nome);
    expect(sp).toEqual(
      expect.arrayContaining(['São Paulo', 'Embu-Guaçu', "Santa Bárbara d'Oeste", 'Mogi Guaçu']),
    );
    // Portuguese order puts "Águas de Lindóia" among the A's, not after Z.
    expect(sp.indexOf('Águas de Lindóia')).toBeLessThan(sp.indexOf('Americana'));
  });

  it('a lower-case UF is accepted', async () => {
    const lower = await cities('sp');
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual((await cities('SP')).body);
  });

  it.each(['XX', 'S', 'SPP', 'São Paulo', '35'])('unknown UF "%s" → 400', async (uf) => {
    const error = expectError(await cities(uf), 400, 'BAD_REQUEST');
    expect(error.issues).toEqual([{ path: 'uf', message: expect.any(String) }]);
  });
});
