import { restRoutes } from '@campus/api';
import { createServices } from '@campus/core';
import { createDatabase } from '@campus/core/db';
import pino from 'pino';
import { describe, it } from 'vitest';
import { createApp } from '../src/app';
import { testAuthConfig } from './support/app';
import { UNKNOWN, onWalk } from './support/openapi-walk';

/**
 * The OpenAPI response walk (see openapi-responses.test.ts) against a database that cannot be
 * reached: 503 with Retry-After, checked against the document.
 */
const w = onWalk();

describe('a database that cannot be reached', () => {
  it('503 with Retry-After on every operation that reads the database', async () => {
    // Nothing listens on port 1: every connection is refused at once.
    const gone = await createDatabase({
      kind: 'postgres',
      url: 'postgres://x@127.0.0.1:1/x',
      connectTimeoutS: 1,
    });
    try {
      const down = await w.listen(
        createApp({
          services: createServices(gone.db, testAuthConfig),
          logger: pino({ level: 'silent' }),
          ping: async () => false,
          // As in production (REQUEST_TIMEOUT_MS): the feed's transactions otherwise take seconds
          // to give up on a refused connection (postgres.js retries it); the answer is the same.
          requestTimeoutMs: 1000,
        }),
      );
      const query: Record<string, string> = {
        '/autenticacao/alunos/nickname-disponivel': '?nickname=livre_123',
        '/autenticacao/alunos/email-disponivel': '?email=livre%40campus.test',
      };
      // All at once: each waits for its refused connection on its own.
      await Promise.all(
        restRoutes
          .filter((r) => !r.meta.staticList)
          .map((route) => {
            const template = route.meta.openapi!.path;
            const url = template.replace(/\{[^}]+\}/g, UNKNOWN) + (query[template] ?? '');
            return w.call(route.rest.method, url, 503, {
              agent: down,
              as: w.ana,
              body: route.rest.example,
            });
          }),
      );
    } finally {
      await gone.close();
    }
  });
});
