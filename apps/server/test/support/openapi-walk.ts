import type { Server } from 'node:http';
import { buildOpenApiDocument, restRoutes } from '@campus/api';
import supertest from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import type { createApp } from '../../src/app';
import { probePaths } from '../../src/http/probes';
import { startTestApp, type TestApp, type TestUser } from './app';
import { createResponseValidator } from './openapi-validator';

/**
 * The harness of the OpenAPI response walk (openapi-responses, openapi-protocol and
 * openapi-unreachable): every call is answered for real and checked against the document with a
 * JSON Schema validator (status, headers, body), and the statuses seen are recorded per operation.
 */
export const doc = buildOpenApiDocument('/', probePaths);
const validator = createResponseValidator(doc);
export const UNKNOWN = '3f1b7f9e-0000-4000-8000-000000000000';

type Agent = ReturnType<typeof supertest>;
export interface Call {
  as?: TestUser | { auth: Record<string, string> };
  body?: unknown;
  headers?: Record<string, string>;
  agent?: Agent;
}

export interface Walk {
  t: TestApp;
  admin: TestUser;
  ana: TestUser;
  bia: TestUser;
  /** Statuses seen per documented operation (`GET /post/{id}` → {200, 404}). */
  seen: Map<string, Set<number>>;
  call: (
    method: string,
    url: string,
    expected: number,
    options?: Call,
  ) => Promise<supertest.Response>;
  /** Records a status seen for the operation of `url` (for answers checked elsewhere). */
  record: (method: string, url: string, status: number) => void;
  /** Another instance of the app, listening on port 0, closed after the file. */
  listen: (app: ReturnType<typeof createApp>) => Promise<Agent>;
}

/** A test app with three users (an ADMIN, ana, bia) for this file, and the walk's `call`. */
export function onWalk(): Walk {
  const servers: Server[] = [];
  const walk = { seen: new Map<string, Set<number>>() } as Walk;
  walk.call = async (method, url, expected, options = {}) => {
    let request = (options.agent ?? walk.t.request)[method.toLowerCase() as 'get'](url);
    if (options.as) request = request.set(options.as.auth);
    for (const [name, value] of Object.entries(options.headers ?? {}))
      request = request.set(name, value);
    if (options.body !== undefined)
      request =
        typeof options.body === 'string'
          ? request.send(options.body)
          : request.send(options.body as object);
    const res = await request;
    const key = validator.operationOf(method, url)?.key ?? `${method} ${url}`;
    expect(res.status, `${key}: ${res.text.slice(0, 300)}`).toBe(expected);
    expect(
      validator.problems(method, url, {
        status: res.status,
        headers: res.headers,
        text: res.text ?? '',
      }),
    ).toEqual([]);
    walk.record(method, url, res.status);
    return res;
  };
  walk.record = (method, url, status) => {
    const key = validator.operationOf(method, url)?.key ?? `${method} ${url}`;
    walk.seen.set(key, (walk.seen.get(key) ?? new Set()).add(status));
  };
  walk.listen = async (app) => {
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    servers.push(server);
    return supertest(server);
  };
  beforeAll(async () => {
    walk.t = await startTestApp();
    [walk.admin, walk.ana, walk.bia] = await Promise.all([
      walk.t.createUser({ perfil: 'ADMIN' }),
      walk.t.createUser(),
      walk.t.createUser(),
    ]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await walk.t.close();
  });
  return walk;
}

/** The documented request body example of an operation (what Swagger UI's "Try it out" sends). */
export function example(method: string, template: string, overrides: Record<string, unknown> = {}) {
  const route = restRoutes.find(
    (r) => r.rest.method === method && r.meta.openapi!.path === template,
  );
  expect(route?.rest.example, `${method} ${template} has a request example`).toBeDefined();
  return { ...route!.rest.example, ...overrides };
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;
/** Every documented operation as `[METHOD, path template]`. */
export function documentedOperations(methods: readonly (typeof METHODS)[number][] = METHODS) {
  const operations: [string, string][] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of methods) if (item[method]) operations.push([method.toUpperCase(), path]);
  return operations;
}

/** A static list, or /health: nothing but the rate limit (openapi-protocol) can fail them. */
export function cannotFail(path: string) {
  const staticList = restRoutes.some(
    (r) => r.meta.staticList && r.meta.openapi!.path === path && !path.includes('{'),
  );
  // The VAPID public key is public and takes no input.
  return staticList || path === '/health' || path === '/notifications/push/public-key';
}
