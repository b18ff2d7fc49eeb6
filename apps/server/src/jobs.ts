import {
  mailJobs,
  mediaJobs,
  notificationJobs,
  type DrainOutcome,
  type Services,
} from '@campus/core';
import type { DatabaseHandle } from '@campus/core/db';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

/** Every domain's jobs (name → payload schema, handler, optional schedule). */
const jobs = { ...notificationJobs, ...mailJobs, ...mediaJobs };
export type JobName = keyof typeof jobs;
/** Every queue's name (for the backlog metrics). */
export const jobNames = Object.keys(jobs) as JobName[];

const isDrain = (value: unknown): value is DrainOutcome =>
  typeof value === 'object' && value !== null && 'nextDueInSeconds' in value;

/**
 * The job queue: pg-boss, kept in the database's `pgboss` schema. On PostgreSQL it has a small
 * pool of its own (pg, as pg-boss is written for); embedded, it runs its SQL on the one PGlite
 * connection through `db.executeSql`. Every process runs the workers and the schedule: pg-boss
 * hands each job to one worker, and sends each cron tick once across processes. At start, a
 * sweep catches up on whatever fell due while no process ran.
 *
 * Mail: a change that wrote to the outbox wakes `mail-drain` at once; a message that failed is
 * tried again when its wait is over (a drain job sent for that moment), and the schedule drains
 * every minute whatever happened, so a message left by a crashed process still goes.
 */
export async function startJobs(
  database: DatabaseHandle,
  services: Services,
  logger: Logger,
  poolMax = 3,
): Promise<{ boss: PgBoss; stop(): Promise<void> }> {
  // A session of its own (pg-boss takes advisory locks): direct, never through a pooler.
  const connection =
    database.kind === 'postgres'
      ? { connectionString: database.sessionUrl!, max: poolMax, application_name: 'campus-jobs' }
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
  const drainSoon = (afterSeconds: number) =>
    boss
      .send(
        'mail-drain',
        {},
        afterSeconds > 0
          ? { startAfter: afterSeconds, singletonKey: 'retry', singletonSeconds: 1 }
          : { singletonKey: 'now', singletonSeconds: 1 },
      )
      .catch((error: unknown) => logger.warn({ err: error }, 'mail drain not queued'));
  for (const [name, job] of Object.entries(jobs)) {
    await boss.work(
      name,
      { pollingIntervalSeconds: name === 'mail-drain' ? 1 : 2 },
      async ([found]) => {
        if (!found) return;
        job.payload.parse(found.data ?? {});
        const result = await job.handler(services);
        if (isDrain(result)) {
          if (result.sent || result.failed) logger.info({ job: name, ...result }, 'job done');
          if (result.failed && result.nextDueInSeconds !== null)
            await drainSoon(Math.max(1, result.nextDueInSeconds));
        } else if (result) logger.info({ job: name, written: result }, 'job done');
      },
    );
  }
  services.mail.onWakeUp(() => void drainSoon(0));
  await boss.send('reminders-sweep', {}, { singletonKey: 'boot', singletonSeconds: 10 });
  await drainSoon(0);
  return {
    boss,
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5000 }),
  };
}
