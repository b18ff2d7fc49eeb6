import type { Server } from 'node:http';
import { createEventBus, createServices } from '@campus/core';
import { createDatabase } from '@campus/core/db';
import { TEST_POOL_MAX, throughPoolerOf } from '@campus/core/testing';
import pino from 'pino';
import supertest from 'supertest';
import { createApp } from '../../src/app';
import { testAuthConfig, type TestApp } from './app';

/**
 * A second server process stand-in: another Express app with its own services and its own
 * connection pool on the SAME PostgreSQL database as `first`, so in-process state is not shared
 * and only the database can keep two instances consistent. PostgreSQL only (PGlite is in-memory
 * and private to one handle).
 */
export async function startSecondInstance(first: TestApp) {
  const url = first.database.url;
  if (!url) throw new Error('a second instance needs the postgres backend');
  const database = await createDatabase({
    kind: 'postgres',
    ...throughPoolerOf(url, process.env),
    maxConnections: TEST_POOL_MAX,
  });
  const bus = createEventBus(database.listen);
  const app = createApp({
    services: createServices(database.db, testAuthConfig, { bus }),
    logger: pino({ level: process.env.SECOND_LOG ?? 'silent' }),
    ping: database.ping,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    request: supertest(server),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await bus.close();
      await database.close();
    },
  };
}
