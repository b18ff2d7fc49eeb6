import {
  createCommentInput,
  createMatchInput,
  createPostInput,
  eventFieldIssues,
  LIMITS,
  loginInput,
  registerStudentInput,
} from '@campus/core/schemas';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fieldErrors, formMessage, sameNames } from './errors';
import { checked, InvalidInput } from './validate';

const USER = '6f1d4d3e-8d1b-4c55-9a43-1c6a3b1d2e4f';

/** The field errors and the message a form shows for `input`, checked before sending. */
function errorsOf(schema: z.ZodType, input: unknown, language: 'pt' | 'en', fields: string[]) {
  try {
    checked(schema, input, language);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    const names = sameNames(...fields);
    return { fields: fieldErrors(error, names), form: formMessage(error, names) };
  }
  throw new Error('expected the input to be refused');
}

describe('checked: the API’s own schemas before sending', () => {
  it('hands back a valid input unchanged', () => {
    const input = { email: 'Ana@Campus.br', senha: 'x' };
    expect(checked(loginInput, input, 'pt')).toBe(input);
  });

  it.each([
    {
      what: 'keeps the words of the Portuguese schemas (registration)',
      schema: registerStudentInput,
      language: 'pt' as const,
      input: { nickname: '9ana', senha: 'curta', confirmacaoSenha: 'outra', email: 'x' },
      expected: {
        nome: 'obrigatório',
        nickname: 'deve começar com uma letra e ter apenas letras minúsculas, números e _',
        senha: 'deve ter no mínimo 8 caracteres',
        email: 'e-mail inválido',
        confirmacaoSenha: 'deve ser igual à senha',
      },
      // The fields not named here (the rest of the form) are summed up in the form's message.
      form: expect.any(String),
    },
    {
      what: 'puts the English schemas’ issues in Portuguese by their kind (match)',
      schema: createMatchInput,
      language: 'en' as const,
      input: {
        userId: USER,
        title: 'ab',
        maxPlayers: 1,
        MatchDate: '2001-01-01T10:00:00Z',
        location: '',
        teamNameA: 'x'.repeat(LIMITS.match.teamName.max + 1),
      },
      expected: {
        title: 'deve ter no mínimo 3 caracteres',
        maxPlayers: 'deve ser no mínimo 2',
        MatchDate: 'deve ser uma data futura',
        location: 'obrigatório',
        teamNameA: `deve ter no máximo ${LIMITS.match.teamName.max} caracteres`,
      },
      form: 'Corrija os campos indicados.',
    },
  ])('$what', ({ schema, language, input, expected, form }) => {
    const errors = errorsOf(schema, input, language, Object.keys(expected));
    expect(errors).toEqual({ fields: expected, form });
  });

  it('says what an event needs, and refuses a number that is none', () => {
    const post = { title: 'Festa', type: 'EVENT', author: 'ana', authorId: USER };
    expect(errorsOf(createPostInput, post, 'en', ['eventDate', 'location']).fields).toEqual({
      eventDate: 'obrigatório para eventos',
      location: 'obrigatório para eventos',
    });
    const match = { userId: USER, title: 'Jogo', MatchDate: '2999-01-01T10:00:00Z', location: 'x' };
    expect(
      errorsOf(createMatchInput, { ...match, maxPlayers: Number.NaN }, 'en', ['maxPlayers']).fields,
    ).toEqual({ maxPlayers: 'deve ser um número' });
  });

  it('refuses one character over a limit and accepts the limit itself', () => {
    const id = USER;
    const at = 'x'.repeat(LIMITS.comment.content.max);
    expect(() => checked(createCommentInput, { id, content: at }, 'en')).not.toThrow();
    expect(
      errorsOf(createCommentInput, { id, content: `${at}x` }, 'en', ['content']).fields,
    ).toEqual({ content: `deve ter no máximo ${LIMITS.comment.content.max} caracteres` });
  });
});

describe('checked with a rule across fields', () => {
  it('reports an event’s missing date and place with its missing title, in one round', () => {
    const input = {
      title: '',
      content: null,
      type: 'EVENT' as const,
      eventDate: null,
      eventFinishDate: null,
      location: null,
      groupId: null,
      author: 'ana',
      authorId: USER,
    };
    let issues: { path: string; message: string }[] = [];
    try {
      checked(createPostInput, input, 'en', eventFieldIssues(input));
    } catch (error) {
      issues = (error as InvalidInput).data.issues;
    }
    expect(issues.map((issue) => issue.path).sort()).toEqual(['eventDate', 'location', 'title']);
    expect(issues.find((issue) => issue.path === 'location')?.message).toBe(
      'obrigatório para eventos',
    );
  });
});
