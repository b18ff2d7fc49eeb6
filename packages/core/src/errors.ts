/**
 * The one domain error type. Services throw it; the API layer translates it to tRPC and HTTP
 * in one place (packages/api/src/errors.ts). `code` names the HTTP-level class of failure,
 * `reason` a stable domain word where one status has several causes.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Stable reasons clients may branch on. Add new ones here, never rename. */
export const REASONS = [
  'INVALID_CREDENTIALS',
  'ACCOUNT_NOT_ACTIVE',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'REFRESH_TOKEN_REUSED',
  'ADMIN_REQUIRED',
  'NOT_OWNER',
  'EMAIL_IN_USE',
  'NICKNAME_IN_USE',
  'CANNOT_CHANGE_OWN_STATUS',
  'CANNOT_CHANGE_ADMIN_STATUS',
  'ALREADY_LIKED',
  'ALREADY_ATTENDING',
  'ALREADY_REPORTED',
  'NOT_AN_EVENT',
  'NOT_LIKED',
  'NOT_ATTENDING',
  'MATCH_FULL',
  'MATCH_STARTED',
  'TEAM_FULL',
  'ALREADY_SUBSCRIBED',
  'INVALID_TRANSITION',
  'CAPACITY_BELOW_PLAYERS',
  'ALREADY_WAITING',
  'MATCH_NOT_FULL',
  'MATCH_NOT_FINISHED',
  'RATE_LIMITED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'TOO_MANY_STREAMS',
  'GROUP_NOT_FOUND',
  'GROUP_NAME_IN_USE',
  'GROUP_FORBIDDEN',
  'GROUP_CLOSED',
  'ALREADY_MEMBER',
  'ALREADY_REQUESTED',
  'REQUEST_ALREADY_DECIDED',
  'LAST_OWNER',
  'ALREADY_FOLLOWING',
  'NOT_FOLLOWING',
  'ACCOUNT_PENDING',
  'RESET_TOKEN_INVALID',
  'WRONG_PASSWORD',
  'INVALID_CURSOR',
  'PUSH_ENDPOINT_NOT_ALLOWED',
  'SERVER_BUSY',
  'DATABASE_UNAVAILABLE',
  'OUTCOME_UNKNOWN',
  'INVALID_IMAGE',
  'MEDIA_NOT_AVAILABLE',
] as const;

export type Reason = (typeof REASONS)[number];

export interface FieldIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly reason: Reason | undefined;
  readonly issues: FieldIssue[] | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { reason?: Reason; issues?: FieldIssue[]; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.reason = options.reason;
    this.issues = options.issues;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * 429: a limit refused the call. `limit` names which (`global`, `account`, `uploads-per-day`, …):
 * /metrics counts the refusals by it and by procedure (docs/operations.md).
 */
export class LimitError extends AppError {
  constructor(
    readonly limit: string,
    message: string,
    reason: Reason = 'RATE_LIMITED',
  ) {
    super('TOO_MANY_REQUESTS', message, { reason });
  }
}

export const badRequest = (message: string, issues?: FieldIssue[]) =>
  new AppError('BAD_REQUEST', message, issues ? { issues } : {});
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const forbidden = (message: string, reason?: Reason) =>
  new AppError('FORBIDDEN', message, reason ? { reason } : {});
export const conflict = (message: string, reason?: Reason) =>
  new AppError('CONFLICT', message, reason ? { reason } : {});
export const unauthorized = (message: string, reason?: Reason) =>
  new AppError('UNAUTHORIZED', message, reason ? { reason } : {});

/** PostgreSQL SQLSTATE 23505, from either driver (postgres.js or PGlite). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint_name, constraint: c } = e as Record<string, unknown>;
    if (code === '23505') return constraint === undefined || constraint === (constraint_name ?? c);
  }
  return false;
}

/**
 * PostgreSQL refused a text value it cannot store or compare: SQLSTATE 22021 (a NUL character,
 * U+0000, which no PostgreSQL text may hold) or 22P05 (untranslatable character).
 */
export function isInvalidText(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code } = e as Record<string, unknown>;
    if (code === '22021' || code === '22P05') return true;
  }
  return false;
}
