/**
 * TEST_DATABASE_POOLER_URL: a transaction-mode PgBouncer in front of the PostgreSQL server of
 * TEST_DATABASE_URL (`apps/server/test/support/with-pgbouncer.ts` starts one). When it is set,
 * the app under test connects as a server deployed behind it does: queries through the pooler,
 * sessions (LISTEN, locks, migrations, the job queue) directly. Test code's own raw SQL keeps
 * the direct URL.
 */
export function throughPooler(directUrl: string): { url: string; directUrl?: string } {
  const pooler = process.env.TEST_DATABASE_POOLER_URL;
  const server = process.env.TEST_DATABASE_URL;
  const direct = new URL(directUrl);
  // Only databases on the server the pooler fronts (not a test's private cluster).
  if (!pooler || !server || new URL(server).host !== direct.host) return { url: directUrl };
  const url = new URL(pooler);
  url.pathname = direct.pathname;
  return { url: url.toString(), directUrl };
}
