import { describe, expect, it } from 'vitest';
import { isReady, runServer, scratchDatabase, waitFor } from '../support/process';

type Envelope = { error?: { data: { appCode: string } } };

/**
 * Two server processes on one PostgreSQL database share the authentication limit through the
 * store: attempts on one count on the other, and a /trpc batch there is refused call by call.
 */
describe('authentication limit across two processes', { tags: ['postgres-only'] }, () => {
  it('refuses a batch of 10 logins on one process once the other has used the limit', async () => {
    const database = await scratchDatabase(process.env.TEST_DATABASE_URL!);
    // A day-long window: a fixed window ending mid-test would reset the count.
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT: 'on',
      RATE_LIMIT_AUTH_MAX: '4',
      RATE_LIMIT_WINDOW_S: '86400',
    };
    // One after the other: the first applies the migrations to the new database.
    const a = runServer(env);
    let b: ReturnType<typeof runServer> | undefined;
    try {
      await waitFor(() => isReady(a), 60_000, 'first process ready');
      b = runServer(env);
      await waitFor(() => isReady(b!), 60_000, 'second process ready');
      const login = (url: string, path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const wrong = { email: 'nobody@campus.test', senha: 'wrong-password' };
      const statuses = [];
      for (const server of [a, b, a, b])
        statuses.push((await login(server.url, '/autenticacao/login', wrong)).status);
      expect(statuses).toEqual([401, 401, 401, 401]);

      const calls = Array.from({ length: 10 }, () => 'auth.login').join(',');
      const body = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(i), wrong]));
      const refused = await login(a.url, `/trpc/${calls}?batch=1`, body);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const answers = (await refused.json()) as Envelope[];
      expect(answers.map((answer) => answer.error?.data.appCode)).toEqual(
        Array(10).fill('TOO_MANY_REQUESTS'),
      );
    } finally {
      a.child.kill('SIGKILL');
      b?.child.kill('SIGKILL');
      await Promise.all([a.exited, b?.exited]);
      await database.drop();
    }
  }, 90_000);
});
