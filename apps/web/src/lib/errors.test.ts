import { describe, expect, it } from 'vitest';
import { fieldErrors, formMessage, isUnauthorized, readFailure, sameNames } from './errors';

/** What a TRPCClientError carries: a message and the server's formatted `data`. */
function apiError(message: string, data: Record<string, unknown>) {
  return Object.assign(new Error(message), { data });
}

const registration = apiError('Dados inválidos', {
  httpStatus: 400,
  path: 'students.register',
  appCode: 'BAD_REQUEST',
  issues: [
    { path: 'confirmacaoSenha', message: 'deve ser igual à senha' },
    { path: 'cidade', message: 'não é um município de SP' },
    { path: 'cidade', message: 'second problem of the same field' },
  ],
});

describe('fieldErrors', () => {
  it('puts each issue beside its field, the first one per field', () => {
    expect(fieldErrors(registration, sameNames('confirmacaoSenha', 'cidade', 'nome'))).toEqual({
      confirmacaoSenha: 'deve ser igual à senha',
      cidade: 'não é um município de SP',
    });
  });

  it('maps API paths to form fields; an English endpoint’s issue shows by its kind, not its words', () => {
    const error = apiError('Invalid input', {
      httpStatus: 400,
      path: 'matches.create',
      issues: [
        { path: 'MatchDate', message: 'MatchDate must be in the future' },
        { path: 'maxPlayers', message: 'maxPlayers must be at least 2' },
      ],
    });
    expect(fieldErrors(error, { MatchDate: 'data', maxPlayers: 'jogadores' })).toEqual({
      data: 'confira este campo',
      jogadores: 'confira este campo',
    });
  });

  it('places a reason that belongs to a field (409 e-mail in use) beside it', () => {
    const error = apiError('E-mail já cadastrado', {
      httpStatus: 409,
      appCode: 'CONFLICT',
      reason: 'EMAIL_IN_USE',
    });
    expect(fieldErrors(error, sameNames('email', 'nickname'))).toEqual({
      email: 'Este e-mail já está cadastrado.',
    });
    expect(fieldErrors(error, sameNames('nickname'))).toEqual({});
  });

  it('finds nothing in an error without issues', () => {
    expect(fieldErrors(new Error('Failed to fetch'), sameNames('email'))).toEqual({});
  });
});

describe('formMessage', () => {
  it('points at the fields when every issue has one', () => {
    expect(formMessage(registration, sameNames('confirmacaoSenha', 'cidade'))).toBe(
      'Corrija os campos indicados.',
    );
  });

  it('spells out the issues no field shows (in Portuguese only)', () => {
    const error = apiError('Invalid input', {
      httpStatus: 400,
      path: 'matches.update',
      issues: [{ path: '', message: 'at least one of title, description is required' }],
    });
    expect(formMessage(error)).toBe('Confira os dados informados.');
    const pt = apiError('Dados inválidos', {
      httpStatus: 400,
      path: 'admin.listUsers',
      issues: [{ path: '', message: 'deve ter no máximo 120 caracteres' }],
    });
    expect(formMessage(pt)).toBe('deve ter no máximo 120 caracteres');
  });

  it('uses the words of a known reason', () => {
    const full = apiError('Match is full', {
      httpStatus: 403,
      appCode: 'FORBIDDEN',
      reason: 'MATCH_FULL',
      path: 'matches.subscribe',
    });
    expect(formMessage(full)).toBe('A partida está lotada.');
  });

  it('keeps the Portuguese endpoints’ own message and replaces the English ones’', () => {
    const pt = apiError('Usuário não encontrado', {
      httpStatus: 404,
      appCode: 'NOT_FOUND',
      path: 'admin.getUser',
    });
    expect(formMessage(pt)).toBe('Usuário não encontrado');
    const en = apiError('Post not found', {
      httpStatus: 404,
      appCode: 'NOT_FOUND',
      path: 'feed.get',
    });
    expect(formMessage(en)).toBe('Não encontrado.');
  });

  it('says so when the server could not be reached', () => {
    expect(formMessage(new TypeError('Failed to fetch'))).toBe(
      'Não foi possível falar com o servidor. Verifique sua conexão.',
    );
  });
});

describe('readFailure and isUnauthorized', () => {
  it('reads the tRPC envelope and ignores malformed issues', () => {
    const failure = readFailure(
      apiError('x', {
        httpStatus: 401,
        appCode: 'UNAUTHORIZED',
        reason: 'TOKEN_EXPIRED',
        issues: [{ path: 1 }],
      }),
    );
    expect(failure).toMatchObject({
      httpStatus: 401,
      appCode: 'UNAUTHORIZED',
      reason: 'TOKEN_EXPIRED',
      issues: [],
    });
    expect(isUnauthorized(apiError('x', { httpStatus: 401 }))).toBe(true);
    expect(isUnauthorized(apiError('x', { httpStatus: 403 }))).toBe(false);
    expect(isUnauthorized('not even an error')).toBe(false);
  });

  it('reads only the reasons and codes core defines', () => {
    const failure = readFailure(apiError('x', { appCode: 'TEAPOT', reason: 'SOMETHING_NEW' }));
    expect(failure.appCode).toBeUndefined();
    expect(failure.reason).toBeUndefined();
  });
});
