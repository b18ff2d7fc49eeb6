import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { seedUser, withProcesses } from '../support/process';
import { openStream } from '../support/sse';

const value = (metrics: string, series: string) => {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('/metrics: what waits', { tags: ['postgres-only'], timeout: 180_000 }, () => {
  it('open streams on the process, the job queue per queue, the mail outbox', async () => {
    await withProcesses(1, async ([server], database) => {
      const user = await seedUser(database.url);
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        // A message due tomorrow: written, not sent.
        await sql`insert into mail_outbox (user_id, "to", subject, text, next_attempt_at)
          values (${user.id}, 'a@campus.test', 'Oi', 'x', now() + interval '1 day')`;
        const stream = await openStream(`${server!.url}/notifications/stream`, user.auth);
        await stream.next(1);
        const metrics = await (await fetch(`${server!.url}/metrics`)).text();
        await stream.close();
        expect(value(metrics, 'campus_open_streams')).toBe(1);
        expect(value(metrics, 'campus_mail_outbox_depth')).toBe(1);
        expect(value(metrics, 'campus_job_queue_depth{queue="mail-drain"}')).toBeGreaterThanOrEqual(
          0,
        );
        expect(
          value(metrics, 'campus_job_queue_oldest_age_seconds{queue="mail-drain"}'),
        ).toBeGreaterThanOrEqual(0);
      } finally {
        await sql.end();
      }
    });
  });

  it("the process's query connections, used and idle, as PostgreSQL sees them", async () => {
    await withProcesses(1, async ([server], database) => {
      const user = await seedUser(database.url);
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        // A list that waits on a lock the test holds: one connection used while /metrics is read.
        const waiting = await sql.reserve();
        await waiting`begin`;
        await waiting`lock table posts in access exclusive mode`;
        const list = fetch(`${server!.url}/post`, { headers: user.auth });
        await expect
          .poll(async () =>
            value(
              await (await fetch(`${server!.url}/metrics`)).text(),
              'db_client_connection_count{state="used"}',
            ),
          )
          .toBeGreaterThanOrEqual(1);
        await waiting`commit`;
        waiting.release();
        expect((await list).status).toBe(200);
        const after = await (await fetch(`${server!.url}/metrics`)).text();
        expect(value(after, 'db_client_connection_count{state="idle"}')).toBeGreaterThanOrEqual(1);
      } finally {
        await sql.end();
      }
    });
  });

  it('work waiting for a query connection, counted while a lock holds the pool', async () => {
    await withProcesses(
      1,
      async ([server], database) => {
        const user = await seedUser(database.url);
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        const pending = async () =>
          value(
            await (await fetch(`${server!.url}/metrics`)).text(),
            'db_client_connection_pending_requests',
          );
        try {
          expect(await pending()).toBe(0);
          // Five lists wait on the lock, two of them on the pool's two connections.
          const waiting = await sql.reserve();
          await waiting`begin`;
          await waiting`lock table posts in access exclusive mode`;
          const lists = Array.from({ length: 5 }, () =>
            fetch(`${server!.url}/post`, { headers: user.auth }),
          );
          await expect.poll(pending, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
          await waiting`commit`;
          waiting.release();
          const answered = await Promise.all(lists);
          expect(answered.map((res) => res.status)).toEqual(Array(5).fill(200));
          await expect.poll(pending).toBe(0);
        } finally {
          await sql.end();
        }
      },
      // The lists must outlast the polling of a loaded machine (each scrape waits up to a second
      // on its reads that queue behind them), not be answered 503 at the default 10 s deadline.
      // Straight to PostgreSQL even in the pooled run: what is counted is the process's own work.
      { DATABASE_POOL_MAX: '2', REQUEST_TIMEOUT_MS: '60000', DATABASE_DIRECT_URL: '' },
    );
  });

  it('limit refusals by limit and procedure, REST and /trpc alike', async () => {
    const env = { RATE_LIMIT: 'on', RATE_LIMIT_AUTH_MAX: '1', RATE_LIMIT_WINDOW_S: '86400' };
    await withProcesses(
      1,
      async ([server]) => {
        const wrong = JSON.stringify({ email: 'nobody@campus.test', senha: 'errada-123' });
        const post = (path: string, body: string) =>
          fetch(`${server!.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
        const statuses = [
          (await post('/autenticacao/login', wrong)).status,
          (await post('/autenticacao/login', wrong)).status,
          (await post('/trpc/auth.login', wrong)).status,
        ];
        expect(statuses).toEqual([401, 429, 429]);
        const metrics = await (await fetch(`${server!.url}/metrics`)).text();
        expect(
          value(metrics, 'campus_rate_limit_refusals_total{limit="auth",procedure="auth.login"}'),
        ).toBe(2);
      },
      env,
    );
  });
});
