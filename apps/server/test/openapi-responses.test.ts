import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { accountsWalk } from './openapi-walks/accounts';
import { accountLifecycleWalk } from './openapi-walks/account-lifecycle';
import { activitiesWalk } from './openapi-walks/activities';
import { feedReaderWalk } from './openapi-walks/feed-reader';
import { groupsWalk } from './openapi-walks/groups';
import { notificationsWalk } from './openapi-walks/notifications';
import { mediaWalk } from './openapi-walks/media';
import { cannotFail, documentedOperations, onWalk } from './support/openapi-walk';

/**
 * Every REST operation and probe, answered for real, checked against the OpenAPI document with a
 * JSON Schema validator (status, headers, body): at least one success and one failure each, the
 * request bodies being the document's own examples; the walks by domain are in openapi-walks/. Runs on PGlite and on PostgreSQL. The
 * protocol statuses (304, 413, 415, 422, 429) are walked in openapi-protocol.test.ts, an
 * unreachable database (503) in openapi-unreachable.test.ts.
 */
const w = onWalk();
const { call } = w;
accountsWalk(w);
accountLifecycleWalk(w);
activitiesWalk(w);
groupsWalk(w);
notificationsWalk(w);
feedReaderWalk(w);
mediaWalk(w);

describe('probes', () => {
  it('health, readiness, metrics', async () => {
    await call('GET', '/health', 200);
    await call('GET', '/ready', 200);
    await call('GET', '/metrics', 200);
    const down = await w.listen(
      createApp({
        services: w.t.services,
        logger: pino({ level: 'silent' }),
        ping: async () => false,
        metricsToken: 'metrics-secret',
      }),
    );
    await call('GET', '/ready', 503, { agent: down });
    await call('GET', '/metrics', 401, { agent: down });
  });
});

describe('coverage', () => {
  it('every documented operation was answered with a success and with a failure', () => {
    const missing: string[] = [];
    for (const [method, path] of documentedOperations()) {
      const key = `${method} ${path}`;
      const statuses = [...(w.seen.get(key) ?? [])];
      if (!statuses.some((s) => s < 400)) missing.push(`${key}: no success`);
      // A static list and /health cannot fail but for the rate limit (openapi-protocol: 429 on
      // every operation).
      if (!statuses.some((s) => s >= 400 && s !== 429) && !cannotFail(path))
        missing.push(`${key}: no failure`);
    }
    expect(missing).toEqual([]);
  });
});
