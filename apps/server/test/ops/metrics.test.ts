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
});
