import {
  REASON_MESSAGES,
  REASONS,
  type ErrorCode,
  type FieldIssue,
  type Reason,
} from '@campus/core/schemas';

export type { FieldIssue };

/*
 * API failures → what the UI shows. Over /trpc an error carries `data.appCode` (BAD_REQUEST,
 * CONFLICT, …), `data.reason` (a stable word such as MATCH_FULL) and `data.issues`
 * (`[{path, message}]`). Field problems go beside their fields; the rest is one message.
 * A reason's words come from core (`REASON_MESSAGES`, one per `Reason`). A form's own check before
 * sending (lib/validate.ts, `InvalidInput`) reads the same way.
 */

export interface ApiFailure {
  message: string;
  appCode: ErrorCode | undefined;
  reason: Reason | undefined;
  httpStatus: number | undefined;
  /** The tRPC procedure, e.g. `matches.subscribe`. */
  path: string | undefined;
  issues: FieldIssue[];
}

/** Reasons that belong to one field of the form that caused them. */
const REASON_FIELDS: Partial<Record<Reason, string>> = {
  EMAIL_IN_USE: 'email',
  NICKNAME_IN_USE: 'nickname',
  CAPACITY_BELOW_PLAYERS: 'maxPlayers',
};

const CODE_MESSAGES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Confira os dados informados.',
  UNAUTHORIZED: 'Sua sessão terminou. Entre novamente.',
  FORBIDDEN: 'Você não tem permissão para isso.',
  NOT_FOUND: 'Não encontrado.',
  METHOD_NOT_SUPPORTED: 'Operação não suportada.',
  CONFLICT: 'Isto mudou enquanto você estava na página. Atualize e tente de novo.',
  PAYLOAD_TOO_LARGE: 'O conteúdo enviado é grande demais.',
  UNSUPPORTED_MEDIA_TYPE: 'Formato de envio não suportado.',
  UNPROCESSABLE_CONTENT: 'Confira os dados informados.',
  TOO_MANY_REQUESTS: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
  INTERNAL_SERVER_ERROR: 'Erro no servidor. Tente de novo em instantes.',
  SERVICE_UNAVAILABLE: 'Serviço indisponível no momento. Tente de novo em instantes.',
};

const NETWORK_MESSAGE = 'Não foi possível falar com o servidor. Verifique sua conexão.';

/**
 * The feed and match endpoints answer in English. The forms check their input with the same
 * schemas before sending (lib/validate.ts), in Portuguese; an issue only the server finds (its
 * clock, a rule on stored data) is shown by its kind, not translated from English words.
 */
const SPEAKS_ENGLISH = /^(feed|matches|groups)\./;
const ENGLISH_ISSUE = 'confira este campo';

const isReason = (value: unknown): value is Reason =>
  typeof value === 'string' && (REASONS as readonly string[]).includes(value);
const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(CODE_MESSAGES, value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Reads any thrown value (a TRPCClientError or anything else) as an API failure. */
export function readFailure(error: unknown): ApiFailure {
  const data = isRecord(error) && isRecord(error.data) ? error.data : {};
  const issues = Array.isArray(data.issues)
    ? data.issues.filter(
        (issue): issue is FieldIssue =>
          isRecord(issue) && typeof issue.path === 'string' && typeof issue.message === 'string',
      )
    : [];
  return {
    message: error instanceof Error ? error.message : String(error),
    appCode: isErrorCode(data.appCode) ? data.appCode : undefined,
    reason: isReason(data.reason) ? data.reason : undefined,
    httpStatus: typeof data.httpStatus === 'number' ? data.httpStatus : undefined,
    path: typeof data.path === 'string' ? data.path : undefined,
    issues,
  };
}

const isEnglish = (failure: ApiFailure) => SPEAKS_ENGLISH.test(failure.path ?? '');

/** An issue's words: the Portuguese endpoints' and the local checks' as they are. */
const issueMessage = (failure: ApiFailure, issue: FieldIssue) =>
  isEnglish(failure) ? ENGLISH_ISSUE : issue.message;

export const isUnauthorized = (error: unknown) => readFailure(error).httpStatus === 401;

/**
 * Field errors by form field name. `fields` lists the form's fields (API path → field name when
 * they differ, e.g. `{ MatchDate: 'matchDate' }`, else the same name); issues of unknown paths
 * stay out, for the form-level message.
 */
export function fieldErrors(
  error: unknown,
  fields: Record<string, string>,
): Record<string, string> {
  const failure = readFailure(error);
  const result: Record<string, string> = {};
  for (const issue of failure.issues) {
    const field = fields[issue.path.split('.')[0] ?? ''];
    if (field && !result[field]) result[field] = issueMessage(failure, issue);
  }
  const reasonField = failure.reason ? REASON_FIELDS[failure.reason] : undefined;
  const mapped = reasonField ? fields[reasonField] : undefined;
  if (mapped && !result[mapped]) result[mapped] = REASON_MESSAGES[failure.reason!];
  return result;
}

/**
 * The message for the whole form: a known reason's own words; for field problems, a pointer to
 * the fields (plus any problem no field shows); otherwise by error code; a failed connection says so.
 */
export function formMessage(error: unknown, fields: Record<string, string> = {}): string {
  const failure = readFailure(error);
  if (failure.reason) return REASON_MESSAGES[failure.reason];
  if (failure.issues.length > 0) {
    const unplaced = failure.issues.filter((issue) => !fields[issue.path.split('.')[0] ?? '']);
    if (unplaced.length === 0) return 'Corrija os campos indicados.';
    if (isEnglish(failure)) return CODE_MESSAGES.BAD_REQUEST;
    return unplaced.map((issue) => issue.message).join(' ');
  }
  if (failure.httpStatus === undefined) return NETWORK_MESSAGE;
  // The Portuguese endpoints explain themselves; the English ones by their code.
  if (!isEnglish(failure) || failure.httpStatus >= 500) return failure.message;
  return failure.appCode ? CODE_MESSAGES[failure.appCode] : CODE_MESSAGES.BAD_REQUEST;
}

/** `{ a: 'a', b: 'b' }` from field names, for `fieldErrors`/`formMessage`. */
export const sameNames = (...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((name) => [name, name]));
