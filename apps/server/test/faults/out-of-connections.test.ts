import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createServices } from '@campus/core';
import { createDatabase } from '@campus/core/db';
import { createTestDatabase } from '@campus/core/testing';
import pino from 'pino';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { backend, testAuthConfig } from '../support/app';

/**
 * PostgreSQL refusing a connection because a limit is reached (SQLSTATE 53300): the server's
 * role may hold one connection, a client holds it, and the server's pool needs one.
 */
describe.skipIf(backend !== 'postgres')('fault: PostgreSQL out of connections (53300)', () => {
  it('answers 503 with Retry-After in the error format and /ready says 503, then recovers', async () => {
    const owner = await createTestDatabase('postgres', process.env.TEST_DATABASE_URL);
    const role = `campus_limited_${randomBytes(4).toString('hex')}`;
    const admin = postgres(owner.url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create role ${role} login password 'x' connection limit 1`);
    await admin.unsafe(`grant usage on schema public to ${role}`);
    await admin.unsafe(`grant all on all tables in schema public to ${role}`);
    const url = new URL(owner.url!);
    Object.assign(url, { username: role, password: 'x' });
    const limited = await createDatabase({
      kind: 'postgres',
      url: url.toString(),
      maxConnections: 2,
    });
    const app = createApp({
      services: createServices(limited.db, testAuthConfig),
      logger: pino({ level: 'silent' }),
      ping: limited.ping,
    });
    const server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The role's one connection, held by someone else.
    const holder = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await holder`select 1`;
      const refused = await fetch(
        `${base}/autenticacao/alunos/email-disponivel?email=livre%40campus.test`,
      );
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = await refused.json();
      expect(body).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.any(String),
        reason: 'DATABASE_UNAVAILABLE',
      });
      expect(JSON.stringify(body)).not.toMatch(/53300|too many|postgres/i);
      expect((await fetch(`${base}/ready`)).status).toBe(503);

      await holder.end();
      expect(
        (await fetch(`${base}/autenticacao/alunos/email-disponivel?email=livre%40campus.test`))
          .status,
      ).toBe(200);
      expect((await fetch(`${base}/ready`)).status).toBe(200);
    } finally {
      await holder.end();
      await new Promise((resolve) => server.close(resolve));
      await limited.close();
      await admin.unsafe(`drop owned by ${role}`);
      await admin.end();
      await owner.close();
      const root = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      await root.unsafe(`drop role if exists ${role}`);
      await root.end();
    }
  });
});
