import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express from 'express';
import { z } from 'zod';

/** "15m", "30d", "3600" (seconds) → seconds. */
const duration = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'must be a duration such as 900, 15m, 12h or 30d')
  .transform((value) => {
    const amount = Number.parseInt(value, 10);
    const unit = value.trim().slice(-1);
    const factor = { s: 1, m: 60, h: 3600, d: 86_400 }[unit] ?? 1;
    return amount * factor;
  })
  .refine((seconds) => seconds > 0, 'must be more than zero');

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /**
   * Set when DATABASE_URL goes through a transaction-mode pooler (PgBouncer): LISTEN, the setup
   * lock, migrations and the job queue connect here, straight to PostgreSQL.
   */
  DATABASE_DIRECT_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /**
   * Query connections per process (see docs/operations.md for the budget). At least 2: without a
   * direct URL, the migrations hold one (the setup lock) while they run on another.
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(20),
  /** A query connection idle this long is closed: the pool shrinks after a burst. */
  DATABASE_POOL_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).max(86_400).default(30),
  /** A query connection is replaced after this long, busy or not. */
  DATABASE_POOL_MAX_LIFETIME_S: z.coerce.number().int().min(10).max(86_400).default(1800),
  /** Connections of the job queue's own pool (sessions, direct to PostgreSQL). */
  JOBS_POOL_MAX: z.coerce.number().int().min(1).max(50).default(3),
  /** Give up opening a PostgreSQL connection after this many seconds. */
  DATABASE_CONNECT_TIMEOUT_S: z.coerce.number().int().min(1).max(120).default(2),
  /** PostgreSQL cancels a statement running longer than this. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(8000),
  /** A procedure call not finished within this is answered 503 (the database is not answering). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** A request's line and headers must arrive within this (slow clients; docs/operations.md). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** A request, body included, must arrive within this (not its answer, not a stream). */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Open connections one client address may hold on one process (a trusted proxy: no bound). */
  CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(1000),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Photos in this S3-compatible bucket instead of DATA_DIR/media (docs/contract/media.md). */
  MEDIA_S3_BUCKET: optionalString,
  /** An S3-compatible endpoint (MinIO, R2); absent → AWS S3. */
  MEDIA_S3_ENDPOINT: optionalString.pipe(z.url().optional()),
  MEDIA_S3_REGION: optionalString,
  /** Where browsers read the photos (a CDN); absent → /media/files on this service. */
  MEDIA_PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  JWT_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_TTL: duration.default(15 * 60),
  REFRESH_TOKEN_TTL: duration.default(30 * 86_400),
  ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
  ADMIN_PASSWORD: optionalString.pipe(
    z.string().min(8, 'must be at least 8 characters').optional(),
  ),
  CORS_ORIGINS: optionalString
    .transform((value) =>
      value
        ? value
            .split(',')
            .map((origin) => origin.trim())
            .filter(Boolean)
        : [],
    )
    .pipe(
      z.array(
        z
          .string()
          .refine(
            isOrigin,
            'each entry must be an origin such as https://app.example.org (scheme, host, optional port; no path)',
          ),
      ),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT: z.enum(['on', 'off']).default('on'),
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Login-class attempts per address per window: above what a campus NAT sends (docs/operations.md). */
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().min(1).default(300),
  /** Refreshes of one refresh token per window (a session, not an address). */
  RATE_LIMIT_REFRESH_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_GLOBAL_MAX: z.coerce.number().int().min(1).default(3000),
  /** Password checks of one account (login, change, deletion) per RATE_LIMIT_ACCOUNT_WINDOW_S. */
  RATE_LIMIT_ACCOUNT_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_ACCOUNT_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Password hashes computed at once by one process; unset → from the cores (docs/operations.md). */
  PASSWORD_CHECKS_MAX: z.coerce.number().int().min(1).max(64).optional(),
  /** Password checks that may wait for one of those; past it, 503 SERVER_BUSY at once. */
  PASSWORD_CHECKS_QUEUE: z.coerce.number().int().min(0).max(1000).optional(),
  REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  /** Express's "trust proxy": unset (direct clients), a hop count, or addresses/subnets. */
  TRUST_PROXY: optionalString
    .transform((value) =>
      value === undefined
        ? false
        : /^\d+$/.test(value)
          ? Number(value)
          : value === 'true'
            ? true
            : value,
    )
    .refine(
      isTrustProxy,
      'must be a hop count, true, or comma-separated addresses/subnets (loopback, 10.0.0.0/8, …)',
    ),
  METRICS_TOKEN: optionalString,
  /**
   * Traces over OTLP/HTTP when either is set (docs/operations.md "Traces"): the base URL (the
   * exporter adds `/v1/traces`) or the traces URL itself; the exporter reads the rest.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString.pipe(
    z.url({ protocol: /^https?$/ }).optional(),
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
  /** How often finished spans are sent (ms). */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(600_000).default(5000),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** MATCH_REMINDER and EVENT_REMINDER this long before the date (e.g. 2h, 90m, 3600). */
  REMINDER_LEAD: duration
    .refine((seconds) => seconds <= 7 * 86_400, 'must be at most 7d')
    .default(2 * 3600),
  /** Distinct reporters that hide a post or comment at once (docs/contract/feed.md, Moderation). */
  MODERATION_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(5),
  /** `off`: this process runs no job queue (reminders are sent by the processes that do). */
  JOBS: z.enum(['on', 'off']).default('on'),
  /** Seconds between SIGTERM and closing the listener, while /ready answers 503 (0.5 allowed). */
  SHUTDOWN_DELAY: z.coerce.number().min(0).max(300).default(5),
  /**
   * Node's own options, read for one thing: whether Node 22 was started with
   * `--experimental-async-context-frame` (a request past its deadline then calls its work back).
   */
  NODE_OPTIONS: z.string().default(''),
  /** Seconds the requests in flight get to finish once the listener closed. */
  SHUTDOWN_TIMEOUT: z.coerce.number().min(1).max(300).default(10),
  /** Live streams one user may hold open across every process (429 TOO_MANY_STREAMS past it). */
  STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(8),
  /** log2 of scrypt's N for new password hashes (17 = OWASP's recommendation). */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(17),
  /** Outgoing mail: smtp://user:pass@host:587 or smtps://…:465. Unset: mail is disabled (see README). */
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  /** The sender of every e-mail, e.g. `Campus <nao-responda@campus.example>`. */
  MAIL_FROM: optionalString
    .pipe(
      z
        .string()
        .refine(
          (value) => /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(value),
          'must be an address, or a name and an address: Campus <nao-responda@campus.example>',
        )
        .optional(),
    )
    .transform((value) => value ?? 'Campus <nao-responda@campus.invalid>'),
  /** With NODE_ENV=production: refuse to start without SMTP_URL (otherwise a warning). */
  REQUIRE_SMTP: z.enum(['true', 'false']).default('false'),
  /** The web app's public address: e-mailed links point at it (`${APP_URL}/redefinir-senha#token=…`). */
  APP_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /**
   * Where push endpoints may point (comma-separated hosts, `*.` for subdomains); default: the
   * push services of Chrome, Firefox, Edge and Safari (docs/contract/push.md).
   */
  PUSH_ENDPOINT_HOSTS: optionalString.transform((value) =>
    value
      ? value
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean)
      : undefined,
  ),
  /** The VAPID pair (base64url, as `npx web-push generate-vapid-keys` prints); unset: kept in the database. */
  VAPID_PUBLIC_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/)
      .optional(),
  ),
  VAPID_PRIVATE_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/)
      .optional(),
  ),
  /** The contact the push services see: `mailto:…` or `https://…`. */
  VAPID_SUBJECT: optionalString.pipe(
    z
      .string()
      .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be mailto:… or https://…')
      .optional(),
  ),
});

/** `https://app.example.org` or `http://localhost:5173`: what a browser sends as `Origin`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/** Whether Express accepts the value as "trust proxy" (it compiles the addresses when set). */
function isTrustProxy(value: boolean | number | string): boolean {
  try {
    express().set('trust proxy', value);
    return true;
  } catch {
    return false;
  }
}

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'JWT_SECRET'> {
  JWT_SECRET: string;
  /** Set when the secret was generated and stored in DATA_DIR (not for production). */
  generatedJwtSecret: boolean;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Validates the environment once, at boot. The only place that reads `process.env`
 * (main.ts passes it in). A bad value throws a ConfigError naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const config = parsed.data;
  if (Boolean(config.ADMIN_EMAIL) !== Boolean(config.ADMIN_PASSWORD)) {
    throw new ConfigError(
      'invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
  }
  if (config.WEB_CONCURRENCY > 1 && !config.DATABASE_URL) {
    throw new ConfigError(
      'invalid configuration: WEB_CONCURRENCY > 1 needs DATABASE_URL (PGlite serves one process)',
    );
  }
  if (config.NODE_ENV === 'production' && config.REQUIRE_SMTP === 'true' && !config.SMTP_URL) {
    throw new ConfigError(
      'invalid configuration: SMTP_URL is required when NODE_ENV=production and REQUIRE_SMTP=true',
    );
  }
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
    );
  }
  if (config.JWT_SECRET)
    return { ...config, JWT_SECRET: config.JWT_SECRET, generatedJwtSecret: false };
  if (config.NODE_ENV === 'production') {
    throw new ConfigError('invalid configuration: JWT_SECRET is required when NODE_ENV=production');
  }
  return { ...config, JWT_SECRET: devJwtSecret(config.DATA_DIR), generatedJwtSecret: true };
}

/** A development secret, generated once and kept in DATA_DIR so tokens survive restarts. */
function devJwtSecret(dataDir: string): string {
  const file = join(resolve(dataDir), 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(resolve(dataDir), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
