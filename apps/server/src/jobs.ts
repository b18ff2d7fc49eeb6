import { notificationJobs, type Services } from '@campus/core';
import type { DatabaseHandle } from '@campus/core/db';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

/** Every domain's jobs (name → payload schema, handler, optional schedule). */
const jobs = { ...notificationJobs };
export type JobName = keyof typeof jobs;

/**
 * The job queue: pg-boss, kept in the database's `pgboss` schema. On PostgreSQL it has a small
 * pool of its own (pg, as pg-boss is written for); embedded, it runs its SQL on the one PGlite
 * connection through `db.executeSql`. Every process runs the workers and the schedule: pg-boss
 * hands each job to one worker, and sends each cron tick once across processes. At start, a
 * sweep catches up on whatever fell due while no process ran.
 */
export async function startJobs(
  database: DatabaseHandle,
  services: Services,
  logger: Logger,
): Promise<{ boss: PgBoss; stop(): Promise<void> }> {
  const connection =
    database.kind === 'postgres'
      ? { connectionString: database.url!, max: 3, application_name: 'campus-jobs' }
      : {
          db: {
            executeSql: (text: string, values: unknown[]) => database.executeSql!(text, values),
          },
        };
  const boss = new PgBoss({ ...connection, schema: 'pgboss' });
  boss.on('error', (error) => logger.warn({ err: error }, 'job queue error'));
  // Under the setup lock: pg-boss's first boot, and two processes creating one queue at the same
  // instant, deadlock in PostgreSQL (its create_queue inserts the queue row, then adds a foreign
  // key to that table), which left one of two processes started together not ready.
  await database.exclusively(async () => {
    await boss.start();
    for (const [name, job] of Object.entries(jobs)) {
      await boss.createQueue(name);
      if (job.schedule) await boss.schedule(name, job.schedule, {});
    }
  });
  for (const [name, job] of Object.entries(jobs)) {
    await boss.work(name, async ([found]) => {
      if (!found) return;
      job.payload.parse(found.data ?? {});
      const written = await job.handler(services);
      if (written) logger.info({ job: name, written }, 'job done');
    });
  }
  await boss.send('reminders-sweep', {}, { singletonKey: 'boot', singletonSeconds: 10 });
  return {
    boss,
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5000 }),
  };
}
