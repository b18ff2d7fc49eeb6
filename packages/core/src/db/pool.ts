import { hostname } from 'node:os';
import postgres from 'postgres';

/**
 * What this process's query connections are called in `pg_stat_activity` (the pool gauge of
 * /metrics counts them there; an operator sees which process holds which connection). Within
 * PostgreSQL's 63 bytes: the pid first, so a long host name cannot cut it off.
 */
export const queryPoolApplicationName = `campus-api ${process.pid} ${hostname()}`.slice(0, 63);

/**
 * Seconds before a connection whose attempt failed tries again: doubling from 50 ms, at most 1 s,
 * with jitter. postgres.js's default grows to 20 s, counted over the whole pool, so after an outage
 * of a few seconds most connections stayed away long after the database was back; the health
 * probe (health.ts) already answers 503 at once meanwhile, so quick retries cost little.
 */
const reconnectDelayS = (attempt: number) =>
  (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** attempt, 1);

/** How the PostgreSQL connections of one process are opened and recycled. */
export interface PoolOptions {
  url: string;
  /**
   * Set when `url` goes through a transaction-mode pooler (PgBouncer): the work that needs a
   * session of its own (LISTEN, the setup lock, migrations, the job queue) connects here instead.
   */
  directUrl?: string | undefined;
  maxConnections?: number | undefined;
  /** Close a connection left idle this long (postgres.js `idle_timeout`): the pool shrinks. */
  idleTimeoutS?: number | undefined;
  /** Replace a connection after this long, busy or not (postgres.js `max_lifetime`). */
  maxLifetimeS?: number | undefined;
  /** Give up opening a connection after this many seconds (postgres.js `connect_timeout`). */
  connectTimeoutS?: number | undefined;
  /** The server cancels a statement running longer than this (PostgreSQL `statement_timeout`). */
  statementTimeoutMs?: number | undefined;
}

/** The query pool's connections at most. */
export const poolSize = (options: PoolOptions) => options.maxConnections ?? 20;

const common = (options: PoolOptions) => ({
  onnotice: () => {},
  backoff: reconnectDelayS,
  ...(options.connectTimeoutS ? { connect_timeout: options.connectTimeoutS } : {}),
});

/**
 * `statement_timeout` sent when the session opens, only where the server is PostgreSQL itself;
 * `idle_in_transaction_session_timeout` the same: a transaction whose client went silent (a
 * partition) is rolled back then instead of holding its locks, and never commits afterwards.
 */
const timeoutAtStartup = (options: PoolOptions) =>
  options.statementTimeoutMs
    ? {
        statement_timeout: options.statementTimeoutMs,
        idle_in_transaction_session_timeout: options.statementTimeoutMs,
      }
    : {};

/**
 * The query pool. Directly on PostgreSQL each connection is a session of its own: named prepared
 * statements and the timeout as a startup parameter. Through a transaction-mode pooler
 * (`directUrl` set) consecutive statements may run on different server connections, so nothing
 * may live in the session: unnamed statements, no startup parameter the pooler would refuse
 * (the timeout is the role's, see `roleStatementTimeout`).
 */
export function queryPool(options: PoolOptions) {
  const pooled = options.directUrl !== undefined;
  return postgres(options.url, {
    ...common(options),
    max: poolSize(options),
    idle_timeout: options.idleTimeoutS ?? 30,
    max_lifetime: options.maxLifetimeS ?? 30 * 60,
    // PgBouncer passes `application_name` on to the server connection it lends.
    connection: {
      application_name: queryPoolApplicationName,
      ...(pooled ? {} : timeoutAtStartup(options)),
    },
    ...(pooled ? { prepare: false } : {}),
  });
}

/**
 * Sessions for setup work when a pooler stands in front (the advisory lock held across the
 * migrations, the migrations themselves): two connections at most, closed soon after boot.
 */
export function directSessions(options: PoolOptions & { directUrl: string }) {
  return postgres(options.directUrl, {
    ...common(options),
    connection: timeoutAtStartup(options),
    max: 2,
    idle_timeout: 5,
  });
}

/**
 * Through a pooler the timeout cannot travel with the connection: it is stored as this role's
 * default in this database, which every server connection the pooler opens afterwards reads
 * (ones already open keep theirs until the pooler replaces them, `server_lifetime`).
 */
export async function roleStatementTimeout(session: postgres.Sql, timeoutMs: number) {
  const ms = Math.trunc(timeoutMs);
  await session.unsafe(
    `do $$ begin execute format('alter role %I in database %I set statement_timeout = %L', current_user, current_database(), '${ms}ms'); end $$`,
  );
}
