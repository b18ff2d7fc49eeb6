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
});
