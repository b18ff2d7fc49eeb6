import { randomBytes } from 'node:crypto';

/** A valid registration body with a unique nickname and e-mail; override any field. */
export function registration(overrides: Record<string, unknown> = {}) {
  const suffix = randomBytes(5).toString('hex');
  return {
    nome: 'Maria da Silva',
    nickname: `maria_${suffix}`,
    email: `maria.${suffix}@campus.test`,
    senha: 'senha-forte-123',
    confirmacaoSenha: 'senha-forte-123',
    instituicao: 'Universidade de Brasília (UnB)',
    curso: 'Engenharia de Software',
    periodo: '3º período',
    dataNascimento: '2003-05-17',
    nacionalidade: 'Brasileira',
    estado: 'DF',
    cidade: 'Brasília',
    escolaridade: 'Graduação',
    ...overrides,
  };
}

/** Today's date (UTC) moved by `days`, as yyyy-mm-dd. */
export const isoDay = (days = 0) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
