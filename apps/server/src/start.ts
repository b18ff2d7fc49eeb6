import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import {
  asyncContextIsCheap,
  createEventBus,
  createServices,
  createSmtpTransport,
  type AuthConfig,
  type MailOptions,
  type PushOptions,
  type Services,
} from '@campus/core';
import { createDatabase, databaseHealth, type DatabaseHandle } from '@campus/core/db';
import { diskStorage, isDatabaseUnavailable, s3Storage, type MediaOptions } from '@campus/core';
import type { Logger } from 'pino';
import { createApp } from './app';
import { jobNames, startJobs } from './jobs';
import { registerBacklogMetrics } from './backlog-metrics';
import { redisStreamSlots } from './streams/redis-slots';
import { findWebRoot } from './http/web';
import { inFlightTracker } from './http/context';
import { boundedServer } from './http/connections';
import { defaultPasswordConcurrency, passwordWork } from './http/password-work';
import { registerDatabaseMetrics } from './metrics';
import { orderlyShutdown } from './shutdown';
import { batchedLimiter, exactLimiter } from './rate-limit/limiter';
import { fallbackStore, postgresStore, redisStore, type RateLimitStore } from './rate-limit/store';
import type { Config } from './config';
import { startTracing, type Tracing } from './tracing';

/** In the bundled build the migrations sit beside main.js; from source, core's own folder. */
export function migrationsFolder(): string | undefined {
  const bundled = fileURLToPath(new URL('./migrations', import.meta.url));
  return existsSync(bundled) ? bundled : undefined;
}

export function openDatabase(config: Config, tracing?: Tracing) {
  const observe = tracing?.sql;
  return config.DATABASE_URL
    ? createDatabase({
        kind: 'postgres',
        url: config.DATABASE_URL,
        directUrl: config.DATABASE_DIRECT_URL,
        maxConnections: config.DATABASE_POOL_MAX,
        idleTimeoutS: config.DATABASE_POOL_IDLE_TIMEOUT_S,
        maxLifetimeS: config.DATABASE_POOL_MAX_LIFETIME_S,
        connectTimeoutS: config.DATABASE_CONNECT_TIMEOUT_S,
        statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
        observe,
      })
    : createDatabase({ kind: 'pglite', dataDir: config.DATA_DIR, observe });
}

export const authConfigOf = (config: Config): AuthConfig => ({
  jwtSecret: config.JWT_SECRET,
  accessTokenTtl: config.ACCESS_TOKEN_TTL,
  refreshTokenTtl: config.REFRESH_TOKEN_TTL,
  passwordCost: config.PASSWORD_HASH_COST,
});

/**
 * Outgoing mail: SMTP when SMTP_URL is set. Without it, in development, each message is written
 * to the log with its links; in production it waits in the outbox (a warning at boot).
 */
export function mailOptionsOf(config: Config, logger: Logger): MailOptions {
  const appUrl = config.APP_URL ?? `http://localhost:${config.PORT}`;
  const log = (fields: Record<string, unknown>, message: string) => logger.info(fields, message);
  if (config.SMTP_URL) {
    return { transport: createSmtpTransport(config.SMTP_URL), from: config.MAIL_FROM, appUrl, log };
  }
  const production = config.NODE_ENV === 'production';
  logger.warn(
    production
      ? 'mail disabled: SMTP_URL is not set; e-mails wait in the outbox until it is'
      : 'mail disabled: SMTP_URL is not set; e-mails are written to the log',
  );
  return { from: config.MAIL_FROM, appUrl, log, logOnly: !production };
}

/** Web Push: the allow-list, the VAPID pair when configured, the subject (docs/contract/push.md). */
export function pushOptionsOf(config: Config, logger: Logger): PushOptions {
  return {
    ...(config.PUSH_ENDPOINT_HOSTS ? { endpointHosts: config.PUSH_ENDPOINT_HOSTS } : {}),
    vapidKeys:
      config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
        ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
        : undefined,
    subject: config.VAPID_SUBJECT ?? `mailto:${config.MAIL_FROM.match(/[^<\s]+@[^>\s]+/)![0]}`,
    log: (fields, message) => logger.info(fields, message),
  };
}

/** Applies the migrations and makes sure the admin account exists: once per start, not per worker. */
export async function prepareDatabase(config: Config, logger: Logger, database: DatabaseHandle) {
  await database.migrate(migrationsFolder());
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const { auth } = createServices(database.db, authConfigOf(config));
    const outcome = await auth.ensureAdmin({
      email: config.ADMIN_EMAIL,
      password: config.ADMIN_PASSWORD,
    });
    logger.info({ email: config.ADMIN_EMAIL, outcome }, 'admin account');
  }
}

/**
 * Opens the database, prepares it (unless a cluster primary already did), and listens.
 * Resolves with a `shutdown` that drains the server and closes the database.
 */
export async function startServer(
  config: Config,
  logger: Logger,
  options: { prepared?: boolean } = {},
) {
  // Traces when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md "Traces").
  const tracing = await startTracing(config);
  const database = await openDatabase(config, tracing);
  if (!options.prepared) await prepareDatabase(config, logger, database);
  // LISTEN/NOTIFY between processes (PGlite's own notifications when embedded).
  const bus = createEventBus(database.listen, (error) =>
    logger.warn({ err: error }, 'event bus: bad notification'),
  );
  // Open streams per user: counted in Redis when configured, else in the database.
  const redisSlots = config.REDIS_URL
    ? await redisStreamSlots(config.REDIS_URL, config.STREAMS_PER_USER)
    : undefined;
  const services = createServices(database.db, authConfigOf(config), {
    bus,
    streamSlots: redisSlots?.slots,
    mail: mailOptionsOf(config, logger),
    media: mediaOptionsOf(config),
    maxStreamsPerUser: config.STREAMS_PER_USER,
    reminderLeadSeconds: config.REMINDER_LEAD,
    moderationThreshold: config.MODERATION_THRESHOLD,
    push: pushOptionsOf(config, logger),
  });
  registerDatabaseMetrics(database, config.DATABASE_POOL_MAX);
  const limits =
    config.RATE_LIMIT === 'on' ? await createRateLimits(config, services, logger) : undefined;
  // PostgreSQL out of reach is known within about a second (docs/operations.md).
  const health = config.DATABASE_URL
    ? databaseHealth({
        url: config.DATABASE_URL,
        connectTimeoutS: config.DATABASE_CONNECT_TIMEOUT_S,
        onChange: (up, error) =>
          up
            ? logger.info('database reachable again')
            : logger.warn({ err: error }, 'database out of reach: calls answered 503 at once'),
      })
    : undefined;
  const inFlight = inFlightTracker();
  // Set once listening: from SIGTERM on, /ready answers 503 while requests are still served.
  let notReady = () => false;
  const webRoot = findWebRoot();
  const app = createApp({
    services,
    track: inFlight.track,
    logger,
    ping: () => database.ping(),
    stopping: () => notReady(),
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    deadlineCallsBackWork: asyncContextIsCheap(process.versions.node, [
      ...process.execArgv,
      ...config.NODE_OPTIONS.split(/\s+/),
    ]),
    corsOrigins: config.CORS_ORIGINS,
    trustProxy: config.TRUST_PROXY,
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    ...(limits ? { rateLimits: limits.limiters } : {}),
    ...(webRoot ? { webRoot } : {}),
    ...(tracing ? { tracing } : {}),
    passwordWork: passwordWorkOf(config),
    ...(health ? { database: health } : {}),
  });
  const jobs =
    config.JOBS === 'on'
      ? await startJobs(database, services, logger, config.JOBS_POOL_MAX, bus).catch(
          async (error: unknown) => {
            await health?.stop();
            await database.close().catch(() => {});
            throw error;
          },
        )
      : undefined;
  registerBacklogMetrics({
    db: database.db,
    openStreams: services.streamSlots.heldHere,
    jobs: jobs && { boss: jobs.boss, queues: jobNames },
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const trusted = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
    const s = boundedServer(app, {
      headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
      connectionsPerAddress: config.CONNECTIONS_PER_ADDRESS,
      exempt: (address) => trusted(address, 0),
    });
    // A listen error (a taken port) refuses the start.
    s.once('error', reject);
    s.listen(config.PORT, config.HOST, () => {
      s.off('error', reject);
      resolve(s);
    });
  }).catch(async (error: unknown) => {
    await jobs?.stop().catch(() => {});
    await health?.stop();
    await database.close().catch(() => {});
    throw error;
  });
  logger.info(
    { port: config.PORT, host: config.HOST, database: database.kind },
    `listening on http://${config.HOST}:${config.PORT} (${database.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL'})`,
  );

  const stopping = orderlyShutdown(server, {
    delayMs: config.SHUTDOWN_DELAY * 1000,
    drainMs: config.SHUTDOWN_TIMEOUT * 1000,
    idle: inFlight.idle,
    logger,
    async stopWork() {
      await limits?.close();
      await health?.stop();
      await jobs?.stop().catch((error: unknown) => logger.warn({ err: error }, 'job queue stop'));
      await bus.close();
      await redisSlots?.close();
      await database.close();
      await tracing?.shutdown().catch(() => {});
    },
  });
  notReady = stopping.notReady;
  return { server, shutdown: stopping.shutdown };
}

/** The bound on password hashing: from the cores this process may use, unless configured. */
function passwordWorkOf(config: Config) {
  const concurrency =
    config.PASSWORD_CHECKS_MAX ?? defaultPasswordConcurrency(config.WEB_CONCURRENCY);
  return passwordWork({
    concurrency,
    queueLength: config.PASSWORD_CHECKS_QUEUE ?? 4 * concurrency,
  });
}

/** The shared store (Redis when REDIS_URL is set, else the database) and the limiters. */
async function createRateLimits(config: Config, services: Services, logger: Logger) {
  const onError = (error: unknown) => logger.warn({ err: error }, 'rate limit store unavailable');
  // Redis refusing or hanging: the counts go to the database meanwhile (docs/operations.md).
  const store: RateLimitStore = config.REDIS_URL
    ? fallbackStore(
        await redisStore(config.REDIS_URL),
        postgresStore(services.rateLimits),
        (error) =>
          logger.warn({ err: error }, 'rate limits: Redis unavailable, counting in the database'),
      )
    : postgresStore(services.rateLimits);
  const window = config.RATE_LIMIT_WINDOW_S;
  const global = batchedLimiter(store, 'global', config.RATE_LIMIT_GLOBAL_MAX, window, onError);
  const auth = exactLimiter(store, 'auth', config.RATE_LIMIT_AUTH_MAX, window);
  const account = exactLimiter(
    store,
    'account',
    config.RATE_LIMIT_ACCOUNT_MAX,
    config.RATE_LIMIT_ACCOUNT_WINDOW_S,
  );
  const refresh = exactLimiter(store, 'refresh', config.RATE_LIMIT_REFRESH_MAX, window);
  const sweeper = setInterval(() => void store.sweep().catch(onError), window * 1000);
  sweeper.unref();
  return {
    limiters: { global, auth, account, refresh },
    async close() {
      clearInterval(sweeper);
      global.stop();
      await global.flush().catch(onError);
      await store.close();
    },
  };
}

/** Why the server could not start, in one line (a taken port, an unreachable database, …). */
export function startFailure(error: unknown, config: Config): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE')
    return `port ${config.PORT} on ${config.HOST} is already in use (PORT)`;
  if (code === 'EACCES') return `no permission to listen on port ${config.PORT} (PORT)`;
  if (code === 'EADDRNOTAVAIL')
    return `address ${config.HOST} is not available on this machine (HOST)`;
  if (isDatabaseUnavailable(error)) {
    const where = config.DATABASE_URL ? new URL(config.DATABASE_URL).host : config.DATA_DIR;
    return `database at ${where} unreachable (DATABASE_URL): ${(error as Error).message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Photos on disk under DATA_DIR, or in MEDIA_S3_BUCKET (docs/operations.md). */
function mediaOptionsOf(config: Config): MediaOptions {
  const storage = config.MEDIA_S3_BUCKET
    ? s3Storage({
        bucket: config.MEDIA_S3_BUCKET,
        endpoint: config.MEDIA_S3_ENDPOINT,
        region: config.MEDIA_S3_REGION,
      })
    : diskStorage(join(resolve(config.DATA_DIR), 'media'));
  return { storage, publicBaseUrl: config.MEDIA_PUBLIC_BASE_URL };
}
