import { buildOpenApiDocument, errorBodySchema, routes } from '@campus/api';
import { createRateLimitService, createServices, ERROR_STATUS, type ErrorCode } from '@campus/core';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import supertest from 'supertest';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { createApp } from '../../src/app';
import { probePaths } from '../../src/http/probes';
import { mediaFilePaths } from '../../src/http/media-files';
import { batchedLimiter, exactLimiter, type Limiter } from '../../src/rate-limit/limiter';
import { postgresStore } from '../../src/rate-limit/store';
import { testAuthConfig, type TestApp } from '../support/app';

/** Helpers of the security suite: the documented surface, table counts, leak checks, tRPC calls. */

/** The document as `/openapi.json` serves it (http/docs.ts): the procedures and the host's routes. */
export const openApiDocument = buildOpenApiDocument('/', { ...probePaths, ...mediaFilePaths });

export const HTTP_METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Every tRPC procedure by dotted path, with its kind and REST route (if it has one). */
export const procedures = routes.map(({ path, type, meta }) => {
  const openapi = meta.openapi;
  return {
    path,
    type,
    route: openapi
      ? { method: openapi.method.toLowerCase() as HttpMethod, path: openapi.path }
      : undefined,
    errorResponses: (openapi?.errorResponses ?? {}) as Record<string, string>,
  };
});

export type OpenApiOperation = NonNullable<
  NonNullable<typeof openApiDocument.paths>[string][HttpMethod]
>;

/**
 * Every procedure operation of /openapi.json: method, path (with `{param}`), the operation
 * object. The host's own documented routes (/health, /ready, /metrics) have no procedure and
 * are left out here.
 */
export const documentedOperations = Object.entries(openApiDocument.paths ?? {}).flatMap(
  ([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).flatMap((method) => {
      const procedure = procedures.find((p) => p.route?.method === method && p.route.path === path);
      return procedure
        ? [
            {
              method,
              path,
              key: `${method.toUpperCase()} ${path}`,
              operation: item[method] as OpenApiOperation,
              procedure: procedure.path,
            },
          ]
        : [];
    }),
);

/** `/post/{id}` with `{id: 'x'}` → `/post/x` (each value URL-encoded). */
export const fillPath = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<
    string,
    unknown
  >[];
}

/** `count(*)` of every table of the application's schema, by table name. */
export async function tableCounts(db: TestApp['db']): Promise<Record<string, number>> {
  const tables = rowsOf(
    await db.execute(
      sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
    ),
  ).map((row) => String(row.tablename));
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = rowsOf(
      await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
    );
    counts[table] = Number(row!.n);
  }
  return counts;
}

/** Runs raw SQL on the test database (either driver) and returns the rows. */
export async function query(db: TestApp['db'], statement: ReturnType<typeof sql>) {
  return rowsOf(await db.execute(statement));
}

/** A limiter that never refuses, for the side of `rateLimits` a test does not exercise. */
const unlimited: Limiter = {
  hit: () => ({ allowed: true, limit: Infinity, remaining: Infinity, resetSeconds: 1 }),
  flush: async () => {},
};

/** Fixed windows start at multiples of their length: a day-long one is not crossed mid-test. */
const WINDOW_S = 86_400;

/**
 * Another app on the test database with rate limits on (the lead's limiters, PostgreSQL store),
 * as a deployment runs it. Counter names are unique per call, so tests do not share windows.
 */
export function appWithRateLimits(t: TestApp, limits: { authMax?: number; globalMax?: number }) {
  const store = postgresStore(createRateLimitService(t.db));
  const name = randomBytes(4).toString('hex');
  const global =
    limits.globalMax === undefined
      ? undefined
      : batchedLimiter(store, `global_${name}`, limits.globalMax, WINDOW_S, () => {});
  const app = createApp({
    services: createServices(t.db, testAuthConfig),
    logger: pino({ level: 'silent' }),
    ping: async () => true,
    rateLimits: {
      global: global ?? unlimited,
      auth:
        limits.authMax === undefined
          ? unlimited
          : exactLimiter(store, `auth_${name}`, limits.authMax, WINDOW_S),
    },
  });
  return { request: supertest(app), stop: () => global?.stop() };
}

type Request = TestApp['request'];

/**
 * A tRPC call the way @trpc/client sends it without batching: a query is a GET with
 * `?input=<JSON>`, a mutation a POST with the JSON input as the body.
 */
export function trpc(
  request: Request,
  path: string,
  input?: unknown,
  auth?: { Authorization: string },
) {
  const procedure = procedures.find((p) => p.path === path);
  if (!procedure) throw new Error(`no procedure ${path}`);
  const req =
    procedure.type === 'query'
      ? request.get(
          `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
        )
      : request.post(`/trpc/${path}`);
  if (auth) req.set(auth);
  if (procedure.type !== 'query' && input !== undefined) req.send(input as object);
  return req;
}

/** Text that must never reach a client: stacks, SQL, driver and framework internals. */
export const INTERNALS =
  /\bat [\w.<>]+ \(|\.[cm]?[jt]s:\d+|node_modules|\bselect\b.+\bfrom\b|\binsert into\b|\bdelete from\b|\bupdate\b.+\bset\b|relation "|duplicate key|violates|syntax error at|failed query|postgres|pglite|drizzle|ECONNREFUSED|TRPCError|ZodError|RangeError|TypeError|"stack"|"cause"/i;

/** Secrets that must never be in any response: password hashes and the words that name them. */
export const SECRETS = /password|passwordHash|password_hash|scrypt\$|senha|tokenHash|token_hash/i;

/** A REST error: 4xx/5xx with exactly `{code, message, reason?, issues?}`, the code matching the status. */
export function expectErrorFormat(res: {
  status: number;
  body: unknown;
  text: string;
  headers: Record<string, string>;
}) {
  expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.headers['content-type'], res.text).toMatch(/^application\/json/);
  const body = errorBodySchema.strict().parse(res.body);
  expect(ERROR_STATUS[body.code as ErrorCode], res.text).toBe(res.status);
  expect(res.text).not.toMatch(INTERNALS);
  return body;
}

/** A /trpc error: tRPC's envelope with our code in `data.appCode`, nothing internal. */
export function expectTrpcError(
  res: { status: number; body: unknown; text: string },
  status: number,
  appCode: ErrorCode,
) {
  expect(res.status, res.text).toBe(status);
  const error = (res.body as { error?: { message: string; data: Record<string, unknown> } }).error;
  expect(error, res.text).toBeDefined();
  expect(error!.data).toMatchObject({ httpStatus: status, appCode });
  expect(Object.keys(error!.data).sort()).toEqual(
    expect.arrayContaining(['appCode', 'code', 'httpStatus', 'path']),
  );
  expect(error!.data).not.toHaveProperty('stack');
  expect(res.text).not.toMatch(INTERNALS);
  return error!;
}

/** A REST request built from an operation (`{method, path}`) and its inputs. */
export function sendRest(
  request: Request,
  operation: { method: HttpMethod; path: string },
  input: { params: Record<string, string>; query: Record<string, string>; body?: unknown },
  auth?: { Authorization: string },
) {
  const query = new URLSearchParams(input.query).toString();
  const req = request[operation.method](
    `${fillPath(operation.path, input.params)}${query ? `?${query}` : ''}`,
  );
  if (auth) req.set(auth);
  if (input.body !== undefined) req.send(input.body as object);
  return req;
}
