/**
 * Whether an error means the database could not be reached or did not answer in time: the
 * request may succeed if retried later (503), unlike a query the database refused (4xx/500).
 * Looks through drizzle's wrapper (`cause`) to the driver's error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && (UNREACHABLE.has(code) || /^08/.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether a write that failed this way may still have been applied: the connection died or went
 * silent after the work was sent (a reset, a close, a timeout; past the request's deadline, a
 * statement or transaction still on its way: `withCancellingDeadline`), so a COMMIT may have
 * reached the server. Refusals before anything was sent (refused, no connection,
 * out of connections) and the server's own cancellations (statement timeout, shutdown: it rolled
 * back) are not.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, maybeApplied } = current as { code?: unknown; maybeApplied?: unknown };
    if (code === 'DATABASE_DEADLINE_PASSED') return maybeApplied === true;
    if (typeof code === 'string' && LOST_AFTER_SENDING.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const LOST_AFTER_SENDING = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
]);

const UNREACHABLE = new Set([
  // Node's sockets
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // postgres.js
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  // PostgreSQL: cannot serve now — out of connections (the server's, a role's or a database's
  // limit), shutting down, starting up, statement timeout (SQLSTATE class 08 is matched above)
  '53300',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  // A deadline: `withDeadline`, a statement refused past its request's deadline, the request's
  // work called back and still unsettled (deadline.ts)
  'DATABASE_DEADLINE',
  'DATABASE_DEADLINE_PASSED',
]);

/** Rejects with a DATABASE_DEADLINE error when `work` has not settled within `ms`. */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`no answer within ${ms} ms`), { code: 'DATABASE_DEADLINE' }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
