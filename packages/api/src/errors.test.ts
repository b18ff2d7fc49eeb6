import { AppError } from '@campus/core';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toHttpError, toTRPCError } from './errors';

describe('toHttpError', () => {
  it('keeps an AppError’s code, reason and issues, thrown directly or as a cause', () => {
    const app = new AppError('FORBIDDEN', 'Cheio', { reason: 'MATCH_FULL' });
    const expected = {
      status: 403,
      body: { code: 'FORBIDDEN', message: 'Cheio', reason: 'MATCH_FULL' },
    };
    expect(toHttpError(app)).toEqual(expected);
    expect(toHttpError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: app }))).toEqual(
      expected,
    );
  });

  it('turns an input ZodError into 400 with dotted paths', () => {
    const result = z.object({ a: z.object({ b: z.string() }) }).safeParse({ a: { b: 1 } });
    const error = new TRPCError({ code: 'BAD_REQUEST', cause: result.error });
    expect(toHttpError(error)).toEqual({
      status: 400,
      body: {
        code: 'BAD_REQUEST',
        message: 'Dados inválidos',
        issues: [{ path: 'a.b', message: expect.any(String) }],
      },
    });
  });

  it('never leaks the message of an unexpected error', () => {
    const leaky = new Error('relation "users" does not exist at character 15');
    for (const error of [
      leaky,
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: leaky.message, cause: leaky }),
    ]) {
      const { status, body } = toHttpError(error);
      expect(status).toBe(500);
      expect(body).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Erro interno do servidor' });
    }
  });

  it('maps tRPC’s parse error to 400 and keeps known codes', () => {
    expect(toHttpError(new TRPCError({ code: 'PARSE_ERROR', message: 'bad json' })).status).toBe(
      400,
    );
    expect(
      toHttpError(new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'big' })).body.code,
    ).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('toTRPCError', () => {
  it('gives a wrapped AppError the matching tRPC code', () => {
    const wrapped = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      cause: new AppError('CONFLICT', 'x', { reason: 'EMAIL_IN_USE' }),
    });
    const translated = toTRPCError(wrapped);
    expect(translated.code).toBe('CONFLICT');
    expect(translated.cause).toBe(wrapped.cause);
  });
});

describe('output validation and language', () => {
  it('an output validation failure is a 500, not a 400', () => {
    const result = z.object({ id: z.uuid() }).safeParse({ id: 'x' });
    const error = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Output validation failed',
      cause: result.error,
    });
    expect(toHttpError(error).status).toBe(500);
  });

  it('answers input failures and shared auth failures in English on the feed and matches', () => {
    const result = z.object({ title: z.string() }).safeParse({});
    const input = new TRPCError({ code: 'BAD_REQUEST', cause: result.error });
    expect(toTRPCError(input, 'en').message).toBe('Invalid input');
    expect(toTRPCError(input, 'pt').message).toBe('Dados inválidos');
    const auth = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      cause: new AppError('UNAUTHORIZED', 'Token inválido', { reason: 'TOKEN_INVALID' }),
    });
    expect(toHttpError(toTRPCError(auth, 'en')).body).toEqual({
      code: 'UNAUTHORIZED',
      message: 'Access token missing or invalid',
      reason: 'TOKEN_INVALID',
    });
    expect(toHttpError(toTRPCError(auth, 'pt')).body.message).toBe('Token inválido');
  });
});
