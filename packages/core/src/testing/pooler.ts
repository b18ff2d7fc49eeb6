/**
 * TEST_DATABASE_POOLER_URL: a transaction-mode PgBouncer in front of the PostgreSQL server of
 * TEST_DATABASE_URL (`scripts/with-pgbouncer.sh` starts one). When it is set, the app under test
 * connects as a server deployed behind it does: queries through the pooler (`url`), sessions
 * (LISTEN, locks, migrations, the job queue) directly (`directUrl`). Test code's own raw SQL keeps
 * the direct URL. Only databases on `serverUrl`, the server the pooler fronts, are rerouted
 * (not a test's private cluster).
 */
export function throughPooler(
  directUrl: string,
  poolerUrl: string | undefined,
  serverUrl: string | undefined,
): { url: string; directUrl?: string } {
  const direct = new URL(directUrl);
  if (!poolerUrl || !serverUrl || new URL(serverUrl).host !== direct.host)
    return { url: directUrl };
  const url = new URL(poolerUrl);
  url.pathname = direct.pathname;
  return { url: url.toString(), directUrl };
}

/** Both URLs from the test environment (the server test suites' `process.env`). */
export type PoolerEnv = { TEST_DATABASE_POOLER_URL?: string; TEST_DATABASE_URL?: string };
export const throughPoolerOf = (directUrl: string, env: PoolerEnv) =>
  throughPooler(directUrl, env.TEST_DATABASE_POOLER_URL, env.TEST_DATABASE_URL);
