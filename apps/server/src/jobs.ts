import {
  mailJobs,
  mediaJobs,
  notificationJobs,
  pushJobs,
  type DrainOutcome,
  type EventBus,
  type Services,
} from '@campus/core';
import type { DatabaseHandle } from '@campus/core/db';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

/** Every domain's jobs (name → payload schema, handler, optional schedule). */
const jobs = { ...notificationJobs, ...mailJobs, ...pushJobs, ...mediaJobs };
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
 * Mail: a change that wrote to the outbox wakes `mail-drain` at once, coalesced in the process as
 * push's wake-ups are and never throttled away (with a one-second singleton, a mail written just
 * after a drain had read its batch waited for the schedule: two reset links a second apart came a
 * minute apart); a message that failed is tried again when its wait is over (a drain job sent for
 * that moment), and the schedule drains every minute whatever happened, so a message left by a
 * crashed process still goes.
 *
 * Push (docs/contract/push.md): every process watches the bus's `notification` events (sent when
 * a notification commits) and wakes `push-drain`, a `short` queue: at most one drain waits to
 * start, across processes, so a burst of wake-ups costs a few drains, and a wake-up during a drain
 * queues one more, never lost. (Not `stately`: a process killed mid-drain would leave its job
 * active, blocking every drain until pg-boss expired it.) Drains may overlap: each row is locked
 * by one of them (SKIP LOCKED).
 * A message that failed is tried again by `push-retry`, sent for the moment its wait ends.
 */
export async function startJobs(
  database: DatabaseHandle,
  services: Services,
  logger: Logger,
  poolMax = 3,
  bus?: EventBus,
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
      await boss.createQueue(name, name === 'push-drain' ? { name, policy: 'short' } : undefined);
      if (job.schedule) await boss.schedule(name, job.schedule, {});
    }
  });
  const retryMail = (afterSeconds: number) =>
    boss
      .send(
        'mail-drain',
        {},
        { startAfter: afterSeconds, singletonKey: 'retry', singletonSeconds: 1 },
      )
      .catch((error: unknown) => logger.warn({ err: error }, 'mail retry not queued'));
  const retryPush = (afterSeconds: number) =>
    boss
      .send(
        'push-retry',
        {},
        { startAfter: afterSeconds, singletonKey: 'retry', singletonSeconds: 1 },
      )
      .catch((error: unknown) => logger.warn({ err: error }, 'push retry not queued'));
  const workers = new Map<string, string>();
  for (const [name, job] of Object.entries(jobs)) {
    const worker = await boss.work(
      name,
      { pollingIntervalSeconds: name.endsWith('-drain') ? 1 : 2 },
      async ([found]) => {
        if (!found) return;
        job.payload.parse(found.data ?? {});
        const result = await job.handler(services);
        if (isDrain(result)) {
          if (result.sent || result.failed) logger.info({ job: name, ...result }, 'job done');
          if (name.startsWith('push-') && result.nextDueInSeconds !== null)
            await retryPush(Math.max(1, result.nextDueInSeconds));
          else if (result.failed && result.nextDueInSeconds !== null)
            await retryMail(Math.max(1, result.nextDueInSeconds));
        } else if (result) logger.info({ job: name, written: result }, 'job done');
      },
    );
    workers.set(name, worker);
  }
  /** A drain job for `name` now, and its worker told (no wait for its next poll). */
  const drainNow = (name: 'mail-drain' | 'push-drain') => async () => {
    await boss.send(name, {});
    boss.notifyWorker(workers.get(name)!);
  };
  const wakeMail = coalesced(drainNow('mail-drain'), logger);
  services.mail.onWakeUp(wakeMail);
  const wakePush = coalesced(drainNow('push-drain'), logger);
  const stopWatching = await bus?.watch('notification', {
    onEvent: (event) => {
      if (event.seq !== undefined) wakePush();
    },
    onResync: wakePush,
  });
  await boss.send('reminders-sweep', {}, { singletonKey: 'boot', singletonSeconds: 10 });
  wakeMail();
  wakePush();
  return {
    boss,
    async stop() {
      stopWatching?.();
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}

/**
 * `run` at once, or, while it runs, once more right after: a burst of calls costs at most two
 * runs, and a call during a run is never lost.
 */
function coalesced(run: () => Promise<unknown>, logger: Logger) {
  let running = false;
  let again = false;
  return function trigger() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      do {
        again = false;
        await run().catch((error: unknown) => logger.warn({ err: error }, 'drain not queued'));
      } while (again);
      running = false;
    })();
  };
}
