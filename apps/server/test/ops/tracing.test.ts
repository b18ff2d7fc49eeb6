import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import {
  callJson,
  isReady,
  killServers,
  runServer,
  scratchDatabase,
  waitFor,
  type ServerProcess,
} from '../support/process';

const ADMIN_EMAIL = 'tracing.admin@campus.test';
const ADMIN_PASSWORD = `senha-${randomBytes(6).toString('hex')}`;
/** A post title no span may carry: a parameter value of the INSERT. */
const TITLE = `Titulo ${randomBytes(6).toString('hex')}`;

/** A database for one server process: a scratch PostgreSQL one when configured, else PGlite. */
async function processDatabase(): Promise<{
  env: Record<string, string>;
  drop: () => Promise<void>;
}> {
  if (process.env.TEST_DATABASE_URL) {
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL);
    return { env: { DATABASE_URL: database.url }, drop: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'campus-tracing-'));
  return {
    env: { DATA_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Signs in, creates a post and reads it with a caller's `traceparent`; what the test needs back. */
async function exercise(server: ServerProcess) {
  const login = await callJson<{ dados: { accessToken: string } }>(
    server,
    'POST',
    '/autenticacao/login',
    {},
    { email: ADMIN_EMAIL, senha: ADMIN_PASSWORD },
  );
  expect(login.status).toBe(200);
  const token = login.body.dados.accessToken;
  const auth = { Authorization: `Bearer ${token}` };
  const { sub, nickname } = JSON.parse(
    Buffer.from(token.split('.')[1]!, 'base64url').toString(),
  ) as {
    sub: string;
    nickname: string;
  };
  const created = await callJson<{ id: string }>(server, 'POST', '/post', auth, {
    title: TITLE,
    content: 'Quadra 1',
    type: 'GENERAL',
    author: nickname,
    authorId: sub,
  });
  expect(created.status).toBe(201);
  const traceId = randomBytes(16).toString('hex');
  const callerSpanId = randomBytes(8).toString('hex');
  const read = await callJson(server, 'GET', `/post/${created.body.id}?secret=${TITLE}`, {
    ...auth,
    traceparent: `00-${traceId}-${callerSpanId}-01`,
  });
  expect(read.status).toBe(200);
  return { token, traceId, callerSpanId, postId: created.body.id };
}

describe.each(['http/json', 'http/protobuf'])(
  'traces over OTLP %s',
  { timeout: 120_000 },
  (protocol) => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('a span per request, procedure and SQL statement, below the caller’s, with no values', async () => {
      const receiver = await startOtlpReceiver();
      cleanups.push(receiver.close);
      const database = await processDatabase();
      cleanups.push(database.drop);
      const server = runServer({
        ...database.env,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        // Either variable turns tracing on: the base URL, or the traces URL itself.
        ...(protocol === 'http/json'
          ? { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` }
          : { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: 'campus-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      cleanups.push(() => killServers([server]));
      await waitFor(() => isReady(server), 60_000, 'server ready');

      const { token, traceId, callerSpanId, postId } = await exercise(server);
      const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
      const request = () => inTrace().find((span) => span.parentSpanId === callerSpanId);
      const procedure = () => inTrace().find((span) => span.parentSpanId === request()?.spanId);
      const sqlBelow = (parent: ReceivedSpan | undefined) =>
        receiver.spans.filter((span) => parent && span.parentSpanId === parent.spanId);
      await waitFor(async () => sqlBelow(procedure()).length > 0, 30_000, 'the GET’s spans');

      expect(request()).toMatchObject({
        name: 'GET feed.get',
        attributes: {
          'http.request.method': 'GET',
          'http.route': 'feed.get',
          'http.response.status_code': 200,
        },
      });
      expect(procedure()).toMatchObject({
        name: 'feed.get',
        attributes: { 'campus.transport': 'rest' },
      });
      for (const sql of sqlBelow(procedure()))
        expect(sql.attributes['db.operation.name']).toMatch(/^[A-Z]+$/);
      expect(receiver.resources).toContainEqual(
        expect.objectContaining({ 'service.name': 'campus-under-test' }),
      );
      // The login and the create were traced too, the create's INSERT below its procedure's span.
      const named = (name: string) => receiver.spans.find((span) => span.name === name);
      for (const name of ['POST auth.login', 'auth.login', 'POST feed.create'])
        expect(named(name)).toBeDefined();
      expect(named('feed.create')?.parentSpanId).toBe(named('POST feed.create')?.spanId);
      expect(sqlBelow(named('feed.create')).map((span) => span.name)).toContain('INSERT');
      // On PostgreSQL a statement's span lasts until its answer, within its procedure's.
      if (database.env.DATABASE_URL) {
        const call = named('feed.create')!;
        for (const sql of sqlBelow(call)) {
          expect(sql.endTimeUnixNano).toBeGreaterThan(sql.startTimeUnixNano);
          expect(sql.startTimeUnixNano).toBeGreaterThanOrEqual(call.startTimeUnixNano);
          expect(sql.endTimeUnixNano).toBeLessThanOrEqual(call.endTimeUnixNano);
        }
      }

      // Nothing secret or user-supplied anywhere in what was exported, whatever the encoding.
      const raw = Buffer.concat(receiver.bodies.map((body) => body.raw)).toString('latin1');
      for (const secret of [
        ADMIN_PASSWORD,
        ADMIN_EMAIL,
        token,
        TITLE,
        'Quadra 1',
        'secret=',
        postId,
      ])
        expect(raw).not.toContain(secret);
      expect(new Set(receiver.bodies.map((body) => body.contentType.split(';')[0]))).toEqual(
        new Set([protocol === 'http/json' ? 'application/json' : 'application/x-protobuf']),
      );
    });
  },
);

describe('SQL spans on PostgreSQL', { tags: ['postgres-only'], timeout: 120_000 }, () => {
  it('a statement’s span lasts until its answer: an INSERT held by a lock spans the wait', async () => {
    const receiver = await startOtlpReceiver();
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    const server = runServer({
      DATABASE_URL: database.url,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    // One connection holds the lock, the other watches for the create waiting on it.
    const sql = postgres(database.url, { max: 2, onnotice: () => {} });
    try {
      await waitFor(() => isReady(server), 60_000, 'server ready');
      const holder = await sql.reserve();
      await holder`begin`;
      await holder`lock table posts in access exclusive mode`;
      const exercised = exercise(server);
      // Once the create waits on the lock, it waits half a second more.
      await waitFor(
        async () =>
          (
            await sql`
              select 1 from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`
          ).length > 0,
        30_000,
        'the create waiting on the lock',
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      await holder`commit`;
      holder.release();
      await exercised;
      const insert = () =>
        receiver.spans.find(
          (span) =>
            span.name === 'INSERT' &&
            span.parentSpanId === receiver.spans.find((s) => s.name === 'feed.create')?.spanId,
        );
      await waitFor(async () => insert() !== undefined, 30_000, 'the INSERT’s span');
      const { startTimeUnixNano, endTimeUnixNano } = insert()!;
      expect((endTimeUnixNano - startTimeUnixNano) / 1e6).toBeGreaterThanOrEqual(400);
    } finally {
      await sql.end();
      await killServers([server]);
      await receiver.close();
      await database.drop();
    }
  });
});
