import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import {
  createEventBus,
  createServices,
  type MediaOptions,
  hashPassword,
  signAccessToken,
  users,
  type AuthConfig,
  type MailOptions,
  type Perfil,
  type PushOptions,
  type UserStatus,
} from '@campus/core';
import { createTestDatabase, type TestBackend } from '@campus/core/testing';
import pino from 'pino';
import supertest from 'supertest';
import { buildOpenApiDocument } from '@campus/api';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp } from '../../src/app';
import { startJobs } from '../../src/jobs';
import { probePaths } from '../../src/http/probes';
import { mediaFilePaths } from '../../src/http/media-files';
import { createResponseValidator, validatingHandler } from './openapi-validator';

/** Every answer of a documented operation in any suite is checked against the OpenAPI document. */
const validator = createResponseValidator(
  buildOpenApiDocument('/', { ...probePaths, ...mediaFilePaths }),
);

export const backend = (process.env.TEST_BACKEND ?? 'pglite') as TestBackend;

export const testAuthConfig: AuthConfig = {
  jwtSecret: 'test-secret-that-is-long-enough-for-hs256-000000',
  accessTokenTtl: 900,
  refreshTokenTtl: 3600,
  passwordCost: 10,
};

export const DEFAULT_PASSWORD = 'senha-segura-123';
let defaultHash: Promise<string> | undefined;

export interface TestUser {
  id: string;
  nome: string;
  nickname: string;
  email: string;
  perfil: Perfil;
  password: string;
  token: string;
  /** `{ Authorization: 'Bearer …' }` */
  auth: { Authorization: string };
}

/**
 * The real app on a fresh database of its own (PGlite, or PostgreSQL when TEST_BACKEND=postgres),
 * listening on port 0, with factories for unique users.
 */
export async function startTestApp(
  options: {
    corsOrigins?: string[];
    webRoot?: string;
    maxStreamsPerUser?: number;
    streamHeartbeatMs?: number;
    /** Outgoing mail (e.g. to the in-process SMTP server of `support/mail.ts`). */
    mail?: MailOptions;
    /** Run the job queue (the outbox's drain, reminders) as a server process does. */
    jobs?: boolean;
    /** Web Push (e.g. to the in-process push service of `support/push-service.ts`). */
    push?: PushOptions;
    /** Photos' storage (default: a disk directory of the system's temporary directory). */
    media?: MediaOptions;
  } = {},
) {
  const database = await createTestDatabase(backend, process.env.TEST_DATABASE_URL, {
    poolerUrl: process.env.TEST_DATABASE_POOLER_URL,
    seed: inject('databaseSeed'),
  });
  const bus = createEventBus(database.listen);
  const services = createServices(database.db, testAuthConfig, {
    bus,
    ...(options.mail ? { mail: options.mail } : {}),
    ...(options.push ? { push: options.push } : {}),
    ...(options.maxStreamsPerUser ? { maxStreamsPerUser: options.maxStreamsPerUser } : {}),
    ...(options.media ? { media: options.media } : {}),
  });
  const outputProblems: string[] = [];
  const app = createApp({
    services,
    // Every answer of every test must already be exactly its output schema, which production
    // does not check (docs/decisions.md, "Output validation").
    outputCheck: {
      mode: 'strict',
      onMismatch: (path, problem) => outputProblems.push(`${path}: ${problem}`),
    },
    logger: pino({ level: 'silent' }),
    ping: database.ping,
    corsOrigins: options.corsOrigins ?? [],
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
    ...(options.streamHeartbeatMs ? { streamHeartbeatMs: options.streamHeartbeatMs } : {}),
  });
  const jobs = options.jobs
    ? await startJobs(database, services, pino({ level: 'silent' }), 3, bus)
    : undefined;
  const audit = validatingHandler(app, validator);
  const problems = () => [...audit.problems, ...outputProblems];
  const server: Server = await new Promise((resolve) => {
    const s = createServer(audit.handler).listen(0, '127.0.0.1', () => resolve(s));
  });
  const request = supertest(server);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function createUser(
    overrides: { perfil?: Perfil; status?: UserStatus; nome?: string; password?: string } = {},
  ): Promise<TestUser> {
    const suffix = randomBytes(5).toString('hex');
    const password = overrides.password ?? DEFAULT_PASSWORD;
    defaultHash ??= hashPassword(DEFAULT_PASSWORD, testAuthConfig.passwordCost);
    const passwordHash =
      password === DEFAULT_PASSWORD
        ? await defaultHash
        : await hashPassword(password, testAuthConfig.passwordCost);
    const [row] = await database.db
      .insert(users)
      .values({
        nome: overrides.nome ?? `Pessoa ${suffix}`,
        nickname: `user_${suffix}`,
        email: `user_${suffix}@campus.test`,
        passwordHash,
        perfil: overrides.perfil ?? 'ALUNO',
        status: overrides.status ?? 'ATIVO',
      })
      .returning();
    const token = signAccessToken(testAuthConfig, row!);
    return {
      id: row!.id,
      nome: row!.nome,
      nickname: row!.nickname,
      email: row!.email,
      perfil: row!.perfil,
      password,
      token,
      auth: { Authorization: `Bearer ${token}` },
    };
  }

  return {
    app,
    server,
    request,
    baseUrl,
    db: database.db,
    database,
    services,
    createUser,
    /** Answers that were not as the OpenAPI document says, so far. */
    documentProblems: audit.problems,
    /** Several users at once, one per set of overrides (`{}` for a default ALUNO). */
    createUsers: <const Each extends ReadonlyArray<Parameters<typeof createUser>[0]>>(
      ...each: Each
    ) =>
      Promise.all(each.map((overrides) => createUser(overrides))) as Promise<{
        -readonly [K in keyof Each]: TestUser;
      }>,
    bus,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await jobs?.stop();
      await bus.close();
      await database.close();
      if (problems().length)
        throw new Error(`answers not as /openapi.json documents them:\n${problems().join('\n')}`);
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
type UserOverrides = Parameters<TestApp['createUser']>[0];

/**
 * The test file's app: started before its tests, handed to `ready` (which keeps it and makes the
 * file's users and fixtures), closed after them.
 * `let t: TestApp; onTestApp(async (app) => { t = app; admin = await app.createUser(…); });`
 */
export function onTestApp(
  ready: (app: TestApp) => unknown,
  options: Parameters<typeof startTestApp>[0] = {},
) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(options);
    await ready(app);
  });
  afterAll(() => app?.close());
}

/**
 * `onTestApp` with the file's users made up front, one per set of overrides: the objects returned
 * are filled in before the tests run, so they can be destructured at the top of the file.
 * `const { t, users: [author, admin] } = onTestAppWithUsers({}, { perfil: 'ADMIN' });`
 */
export const onTestAppWithUsers = <const Each extends ReadonlyArray<UserOverrides>>(
  ...each: Each
) => onTestAppWith({}, ...each);

/** `onTestAppWithUsers` on an app started with `options`. */
export function onTestAppWith<const Each extends ReadonlyArray<UserOverrides>>(
  options: Parameters<typeof startTestApp>[0],
  ...each: Each
) {
  const t = {} as TestApp;
  const users = each.map(() => ({}) as TestUser) as { -readonly [K in keyof Each]: TestUser };
  onTestApp(async (app) => {
    Object.assign(t, app);
    const made = await app.createUsers(...each);
    made.forEach((user, i) => Object.assign(users[i]!, user));
  }, options);
  return { t, users };
}

/** An id no row has. */
export const UNKNOWN_ID = '3f1b7f9e-0000-4000-8000-000000000000';

/** A POST of `body` as it is, with that Content-Type, as `user`. */
export const postRaw = (t: TestApp, path: string, user: TestUser, type: string, body: string) =>
  t.request.post(path).set(user.auth).set('Content-Type', type).send(body);

/** Asserts the error format of docs/contract/errors.md and returns the body. */
export function expectError(
  response: { status: number; body: unknown; headers: Record<string, string> },
  status: number,
  code: string,
) {
  const body = response.body as {
    code: string;
    message: string;
    reason?: string;
    issues?: unknown[];
  };
  if (response.status !== status || body.code !== code || typeof body.message !== 'string') {
    throw new Error(
      `expected ${status} ${code}, got ${response.status} ${JSON.stringify(response.body)}`,
    );
  }
  if (JSON.stringify(body).includes('    at ')) throw new Error('error body carries a stack');
  return body;
}
