import {
  AppError,
  ERROR_STATUS,
  isDatabaseUnavailable,
  isInvalidText,
  REASONS,
  type ErrorCode,
  type FieldIssue,
} from '@campus/core';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';

/** The error body of every failure, on every endpoint (docs/contract/errors.md). */
export const errorBodySchema = z
  .object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    reason: z
      .enum(REASONS)
      .optional()
      .describe(
        'A stable word for the cause, where one status has several; each operation lists its own',
      ),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('The fields that failed validation, all of them (400)'),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;

const INTERNAL_MESSAGE = 'Erro interno do servidor';

/**
 * The database could not be reached in time and nothing was done: the client may retry (503 with
 * `Retry-After`).
 */
export const databaseUnavailable = (cause?: unknown) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'Banco de dados indisponível; nada foi feito, tente novamente em instantes',
    { cause, reason: 'DATABASE_UNAVAILABLE' },
  );

/**
 * A write whose connection died or went silent after it was sent (a COMMIT may have arrived): it
 * may or may not be done. Retried with the same `Idempotency-Key`, it is done once at most.
 */
export const outcomeUnknown = (cause?: unknown) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'Banco de dados deixou de responder; não se sabe se a ação foi concluída',
    { cause, reason: 'OUTCOME_UNKNOWN' },
  );

/**
 * Too many password checks running and waiting in this process (scrypt is slow on purpose): the
 * client may retry shortly (503 with `Retry-After`). Not the database's fault, so not its message.
 */
export const serverBusy = () =>
  new AppError('SERVICE_UNAVAILABLE', 'Servidor ocupado; tente novamente em instantes', {
    reason: 'SERVER_BUSY',
  });

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_UNAVAILABLE_S = 5;

/** Seconds a 503 `SERVER_BUSY` asks to wait: a password check takes well under one. */
export const RETRY_AFTER_BUSY_S = 2;

/** Seconds a 429 `TOO_MANY_STREAMS` asks to wait: a stream may close soon (a tab, a token). */
export const RETRY_AFTER_STREAMS_S = 5;

/**
 * The headers a failure asks for, over REST and /trpc alike (the one home of this rule): a 401
 * names the scheme it wants (RFC 9110 §11.6.1); a 503 and a 429 `TOO_MANY_STREAMS` say when to
 * retry. A 429 `RATE_LIMITED` carries the limiter's own `Retry-After` (`rateLimitHeaders`).
 */
export function errorHeaders(status: number, reason?: string): Record<string, string> {
  if (status === 401) return { 'WWW-Authenticate': 'Bearer' };
  if (status === 503)
    return {
      'Retry-After': String(
        reason === 'SERVER_BUSY' ? RETRY_AFTER_BUSY_S : RETRY_AFTER_UNAVAILABLE_S,
      ),
    };
  if (status === 429 && reason === 'TOO_MANY_STREAMS')
    return { 'Retry-After': String(RETRY_AFTER_STREAMS_S) };
  return {};
}

/** Zod issues as `[{path, message}]`, paths dotted ("teamA.name"), "" for the whole input. */
export function toFieldIssues(error: z.core.$ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

function isZodError(value: unknown): value is z.core.$ZodError {
  return value instanceof Error && value.name === 'ZodError' && 'issues' in value;
}

/**
 * The one translation of any thrown value to an HTTP status and error body. Unknown errors
 * become a 500 with a fixed message: no stack, SQL or driver text ever reaches a client.
 */
export function toHttpError(error: unknown): { status: number; body: ErrorBody } {
  const cause = error instanceof TRPCError ? error.cause : undefined;
  const app = error instanceof AppError ? error : cause instanceof AppError ? cause : undefined;
  if (app) {
    const body: ErrorBody = { code: app.code, message: app.message };
    if (app.reason) body.reason = app.reason;
    if (app.issues) body.issues = app.issues;
    return { status: app.status, body };
  }
  if (isDatabaseUnavailable(error)) return toHttpError(databaseUnavailable(error));
  // A text the database cannot hold (a NUL character) is the client's input, not our failure.
  if (isInvalidText(error)) {
    return {
      status: 400,
      body: { code: 'BAD_REQUEST', message: 'Texto com caractere não aceito (U+0000)' },
    };
  }
  if (error instanceof TRPCError) {
    // Input validation only: an output validation failure also carries a ZodError, and is a 500.
    if (error.code === 'BAD_REQUEST' && isZodError(cause)) {
      return {
        status: 400,
        body: { code: 'BAD_REQUEST', message: 'Dados inválidos', issues: toFieldIssues(cause) },
      };
    }
    const code: ErrorCode =
      error.code === 'PARSE_ERROR'
        ? 'BAD_REQUEST'
        : error.code in ERROR_STATUS
          ? (error.code as ErrorCode)
          : 'INTERNAL_SERVER_ERROR';
    const message = code === 'INTERNAL_SERVER_ERROR' ? INTERNAL_MESSAGE : error.message;
    return { status: ERROR_STATUS[code], body: { code, message } };
  }
  return { status: 500, body: { code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_MESSAGE } };
}

/**
 * Messages of shared failures, by reason, for the procedures that answer in English (their
 * language is in their meta: `RoutePolicy.language`).
 */
const ENGLISH_MESSAGES: Partial<Record<string, string>> = {
  TOKEN_INVALID: 'Access token missing or invalid',
  TOKEN_EXPIRED: 'Access token expired',
  ACCOUNT_NOT_ACTIVE: 'Account is not active',
  ADMIN_REQUIRED: 'Administrators only',
  RATE_LIMITED: 'Too many requests; try again later',
};

/**
 * AppError (or an input ZodError) → a TRPCError whose code matches, keeping the AppError, with
 * the message in the procedure's language.
 */
export function toTRPCError(error: TRPCError, language: 'en' | 'pt' = 'pt'): TRPCError {
  if (!(error.cause instanceof AppError) && isDatabaseUnavailable(error)) {
    const app = databaseUnavailable(error.cause);
    return new TRPCError({ code: app.code, message: app.message, cause: app });
  }
  const { status, body } = toHttpError(error);
  if (status >= 500 && !(error.cause instanceof AppError)) return error;
  const english = language === 'en';
  let app: AppError;
  if (error.cause instanceof AppError) {
    app = error.cause;
    const translated = english && app.reason ? ENGLISH_MESSAGES[app.reason] : undefined;
    if (translated)
      app = new AppError(app.code, translated, {
        ...(app.reason ? { reason: app.reason } : {}),
        cause: app,
      });
    else if (body.code === error.code) return error;
  } else {
    const message = body.issues ? (english ? 'Invalid input' : 'Dados inválidos') : body.message;
    app = new AppError(body.code, message, body.issues ? { issues: body.issues } : {});
  }
  return new TRPCError({ code: app.code, message: app.message, cause: app });
}
