import pino, { type Logger, type LoggerOptions } from 'pino';

/** Never log credentials: these paths are censored wherever they appear in a log object. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.senha',
  '*.confirmacaoSenha',
  '*.password',
  '*.passwordHash',
  '*.accessToken',
  '*.refreshToken',
  '*.token',
];

/** Properties of database errors that carry the statement and its parameters (user data). */
const SQL_FIELDS = ['query', 'params', 'parameters', 'args', 'values'];

/** drizzle's "Failed query: … params: a@b.c,…" message, with the parameters cut off. */
const withoutParams = (text: string) =>
  text.replace(/\nparams: [\s\S]*?(?=\n {4}at |\ncaused by: |$)/g, '\nparams: [redacted]');

/** An error as pino serialises it, less the SQL parameters, through its chain of causes. */
function scrubbed(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== 'object' || depth > 5) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of SQL_FIELDS) delete copy[field];
  for (const field of ['message', 'stack']) {
    if (typeof copy[field] === 'string') copy[field] = withoutParams(copy[field]);
  }
  if (copy.cause) copy.cause = scrubbed(copy.cause, depth + 1);
  return copy;
}

/** The logger's options: credentials redacted, errors without SQL parameters. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: (error: Error) => scrubbed(pino.stdSerializers.err(error)) },
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
