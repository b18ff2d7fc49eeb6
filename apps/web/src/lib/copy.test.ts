import { createMatchInput, registerStudentInput } from '@campus/core/schemas';
import { describe, expect, it } from 'vitest';
import { ownTeamName, teamRef, teamTitle } from './format';
import { inputIssues } from './validate';

/** What a student reads under each field of a form left empty, by the API's own schema. */
const messagesOf = (issues: { path: string; message: string }[]) =>
  Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));

describe('copy for students, not for developers', () => {
  it('an empty registration says what to fill, in words a student uses', () => {
    const messages = messagesOf(
      inputIssues(
        registerStudentInput,
        {
          nome: '',
          nickname: 'ana',
          email: 'ana@campus.test',
          senha: 'senha-123',
          confirmacaoSenha: 'senha-123',
          instituicao: 'USP',
          curso: 'Física',
          periodo: '1º',
          dataNascimento: '',
          nacionalidade: 'Brasileira',
          estado: '',
          cidade: '',
          escolaridade: '',
        },
        'pt',
      ),
    );
    expect(messages.nome).toBe('obrigatório');
    expect(messages.dataNascimento).toBe('informe a data completa: dia, mês e ano');
    expect(messages.estado).toBe('escolha um estado brasileiro (por exemplo, SP)');
    expect(messages.escolaridade).toMatch(/^escolha uma destas: .*Ensino Médio/);
    for (const message of Object.values(messages)) {
      expect(message).not.toMatch(/aaaa|UF\)|ENSINO_MEDIO|no mínimo 1 caractere/);
    }
  });

  it('an empty place of a match is "obrigatório", not a count of characters', () => {
    const issues = inputIssues(
      createMatchInput,
      {
        userId: '6f1d4d3e-8d1b-4c55-9a43-1c6a3b1d2e4f',
        title: 'Racha',
        maxPlayers: 10,
        MatchDate: '2040-01-01T18:00:00Z',
        location: '  ',
      },
      'en',
    );
    expect(messagesOf(issues)).toEqual({ location: 'obrigatório' });
  });

  it('a team left with the default name is "Time A", never "Time A: TIME_A"', () => {
    const cases: [letter: 'A' | 'B', name: string, ref: string, title: string, own: string][] = [
      ['A', 'TIME_A', 'A', 'Time A', ''],
      ['B', 'TIME_B', 'B', 'Time B', ''],
      ['B', 'Tubarões', 'B: Tubarões', 'Tubarões', 'Tubarões'],
      ['A', 'TIME_B', 'A: TIME_B', 'TIME_B', 'TIME_B'],
      ['A', '  ', 'A', 'Time A', ''],
    ];
    for (const [letter, name, ref, title, own] of cases) {
      expect([teamRef(letter, name), teamTitle(letter, name), ownTeamName(letter, name)]).toEqual([
        ref,
        title,
        own,
      ]);
    }
  });
});
