import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations, Logger } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';
import * as schema from './schema';
import { postgresListener } from './listener';
import {
  directSessions,
  poolSize,
  queryPool,
  queryPoolApplicationName,
  roleStatementTimeout,
  type PoolOptions,
} from './pool';
import { watchedClient, type StatementObserver } from './deadline';
import { PoolUsage } from './pool-usage';
import { withDeadline } from './unavailable';

export type Schema = typeof schema;
/** The drizzle database every service receives, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  Schema,
  ExtractTablesWithRelations<Schema>
>;
/** Something queries can run on: the database or an open transaction. */
export type Executor = Database | Transaction;

export const defaultMigrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export type DatabaseOptions = (
  | ({ kind: 'postgres' } & PoolOptions)
  | {
      kind: 'pglite';
      dataDir?: string;
      /** Start from this dump of a data directory (`dump()`; tests copy one migrated database). */
      loadDataDir?: Blob;
    }
) & {
  /**
   * Sees each statement sent and its end (the host's SQL spans); absent → none. On PGlite it is
   * told of a statement as drizzle sends it, and of nothing after: its spans have no duration.
   */
  observe?: StatementObserver | undefined;
};

/** Connections by `pg_stat_activity.state`: active, idle, idle in transaction, … */
export type PoolConnections = Map<string, number>;

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseOptions['kind'];
  /** The connection URL (postgres only), e.g. for a second handle on the same database in tests. */
  url?: string;
  /**
   * Where a session of its own is opened (postgres only): `url`, or the direct URL when `url`
   * goes through a transaction-mode pooler. The job queue connects here.
   */
  sessionUrl?: string;
  /** Applies the committed SQL migrations (idempotent). */
  migrate(migrationsFolder?: string): Promise<void>;
  /**
   * Runs a one-time setup step (the job queue's schema and queues) while holding the lock the
   * migrations take, so processes started together do it one after the other. Embedded: at once.
   */
  exclusively<T>(task: () => Promise<T>): Promise<T>;
  /** True when the database answers a trivial query within `timeoutMs` (default 1 s). */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * PostgreSQL only: this process's query connections by state, as the server sees them
   * (`pg_stat_activity`), the asking one left out. postgres.js counts nothing of its own pool
   * publicly; docs/operations.md says what this shows behind PgBouncer.
   */
  poolConnections?: () => Promise<PoolConnections>;
  /** PostgreSQL only: the query pool's work waiting for a connection, as this process counts it. */
  poolUsage?: PoolUsage;
  /**
   * LISTEN on a channel (see `events/bus.ts`); `onListen` runs on every (re)connection, `onDrop`
   * when the listening connection is lost.
   */
  listen: Listen;
  /**
   * Embedded only: raw SQL on the one PGlite connection (several statements when no values),
   * for a library that brings its own SQL (the job queue's `db.executeSql`).
   */
  executeSql?: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  /** Embedded only: the data directory as a tarball, for `loadDataDir`. */
  dump?: () => Promise<Blob>;
  close(): Promise<void>;
}

/**
 * LISTEN on `channel`: `onNotify` gets each payload, `onListen` runs once the LISTEN is in place
 * and again after the listening connection was lost and re-established (notifications sent
 * in between are lost: the caller resynchronises). `onDrop` runs as soon as the connection is
 * lost (never embedded). Resolves with a function that stops listening.
 */
export type Listen = (
  channel: string,
  onNotify: (payload: string) => void,
  onListen: () => void,
  onDrop?: () => void,
) => Promise<() => Promise<void>>;

/**
 * The one factory for a database: PostgreSQL through postgres.js when a URL is given, otherwise
 * embedded PGlite (in `dataDir`, or in memory when none is given). PGlite is loaded only then:
 * a server on PostgreSQL never holds its code in memory.
 */
export async function createDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'pglite') return createEmbeddedDatabase(options);
  const client = queryPool(options);
  const usage = new PoolUsage(poolSize(options));
  const db = drizzlePostgres(watchedClient(client, { pool: usage, observe: options.observe }), {
    schema,
  });
  const { directUrl } = options;
  // Through a pooler: setup work on direct sessions of its own, opened only when needed.
  let direct: postgres.Sql | undefined;
  const sessions = () =>
    directUrl ? (direct ??= directSessions({ ...options, directUrl })) : client;
  const listener = postgresListener(directUrl ?? options.url, options.connectTimeoutS);
  return {
    db,
    kind: 'postgres',
    url: options.url,
    sessionUrl: directUrl ?? options.url,
    migrate: (folder = defaultMigrationsFolder) =>
      underSetupLock(sessions(), async (session) => {
        if (directUrl && options.statementTimeoutMs)
          await roleStatementTimeout(session, options.statementTimeoutMs);
        const target = directUrl ? drizzlePostgres(session, { schema }) : db;
        await migratePostgres(target, { migrationsFolder: folder });
      }),
    exclusively: (task) => underSetupLock(sessions(), task),
    ping: (timeoutMs) => ping(db, timeoutMs),
    poolUsage: usage,
    poolConnections: async () => {
      // Bounded: with every connection held (a lock waited on), a scrape must still answer.
      const rows = await withDeadline(
        client<{ state: string; n: number }[]>`
          select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
          where application_name = ${queryPoolApplicationName} and pid <> pg_backend_pid()
          group by state`,
        1000,
      );
      return new Map(rows.map((row) => [row.state, row.n]));
    },
    // One connection of its own for LISTEN, which reports drops and re-listens after them.
    listen: listener.listen,
    close: async () => {
      await Promise.all([
        listener.close(),
        client.end({ timeout: 5 }),
        direct?.end({ timeout: 5 }),
      ]);
    },
  };
}

/**
 * Embedded PGlite (in `dataDir`, or in memory when none is given). Its packages are imported
 * here, when an embedded database is opened (`createDatabase`), not when the server loads.
 */
async function createEmbeddedDatabase({
  dataDir,
  loadDataDir,
  observe,
}: Extract<DatabaseOptions, { kind: 'pglite' }>): Promise<DatabaseHandle> {
  const [{ PGlite }, { unaccent }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/unaccent'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // unaccent: group names are compared ignoring accents (migration 0004).
  const client = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { unaccent },
  });
  const logger: Logger | false = observe ? { logQuery: (text) => observe(text)() } : false;
  const db = drizzle(client, { schema, logger });
  return {
    db,
    kind: 'pglite',
    migrate: (folder = defaultMigrationsFolder) => migrate(db, { migrationsFolder: folder }),
    exclusively: (task) => task(),
    ping: (timeoutMs) => ping(db, timeoutMs),
    // One in-process database: its notifications cannot be lost to a dropped connection.
    listen: async (channel, onNotify, onListen) => {
      const unlisten = await client.listen(channel, onNotify);
      onListen();
      return unlisten;
    },
    executeSql: async (text, values) => {
      if (values?.length) return { rows: (await client.query(text, values)).rows };
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    dump: () => client.dumpDataDir('none'),
    close: () => client.close(),
  };
}

/** An arbitrary application-wide advisory lock id ("campus migrations"). */
const SETUP_LOCK_ID = 0x63616d70;

/**
 * Runs `task` while holding a session advisory lock: servers started together on a new database
 * migrate one after the other (the others then find nothing left to apply) instead of racing to
 * create the same tables, and likewise set up the job queue (`exclusively`).
 */
async function underSetupLock<T>(
  client: postgres.Sql,
  task: (sessions: postgres.Sql) => Promise<T>,
): Promise<T> {
  const session = await client.reserve();
  try {
    await session`select pg_advisory_lock(${SETUP_LOCK_ID})`;
    try {
      return await task(client);
    } finally {
      await session`select pg_advisory_unlock(${SETUP_LOCK_ID})`;
    }
  } finally {
    session.release();
  }
}

async function ping(db: Database, timeoutMs = 1000): Promise<boolean> {
  try {
    await withDeadline(db.execute(sql`select 1`), timeoutMs);
    return true;
  } catch {
    return false;
  }
}
