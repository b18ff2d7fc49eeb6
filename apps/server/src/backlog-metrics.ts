import { mailOutboxDepth, pushOutboxDepth, withDeadline } from '@campus/core';
import { oldestDueJobAges, type Database } from '@campus/core/db';
import type PgBoss from 'pg-boss';
import { Gauge, register } from 'prom-client';

/** A backlog read, given up after a second so a scrape always answers. */
const read = <T>(work: Promise<T>) => withDeadline(work, 1000);

const NAMES = [
  'campus_open_streams',
  'campus_job_queue_depth',
  'campus_job_queue_oldest_age_seconds',
  'campus_mail_outbox_depth',
  'campus_push_outbox_depth',
];

/**
 * What waits, read at scrape time: open streams on this process, and the database-wide backlogs
 * (the job queue, the mail and push outboxes). The backlogs are the same on every process: aggregate them
 * with max(), not sum(). A read that fails (the database away) or takes over a second (every query
 * connection held) leaves the gauge unset for that scrape: `db_up` and the pool gauges say why.
 */
export function registerBacklogMetrics(options: {
  db: Database;
  openStreams: () => number;
  /** The job queue and its queue names, when this process runs it. */
  jobs?: { boss: PgBoss; queues: string[] } | undefined;
}) {
  const { db, jobs } = options;
  // A second server in one process (tests) replaces the first one's gauges.
  for (const name of NAMES) register.removeSingleMetric(name);
  new Gauge({
    name: 'campus_open_streams',
    help: 'Live event streams open on this process',
    aggregator: 'sum',
    collect() {
      this.set(options.openStreams());
    },
  });
  if (jobs) {
    new Gauge({
      name: 'campus_job_queue_depth',
      help: 'Jobs waiting to run (created or to be retried), per queue',
      labelNames: ['queue'],
      aggregator: 'max',
      async collect() {
        for (const queue of jobs.queues) {
          const waiting = await read(jobs.boss.getQueueSize(queue, { before: 'active' })).catch(
            () => -1,
          );
          if (waiting >= 0) this.labels(queue).set(waiting);
        }
      },
    });
    new Gauge({
      name: 'campus_job_queue_oldest_age_seconds',
      help: 'Age of the oldest job due and not started, per queue (0 when none)',
      labelNames: ['queue'],
      aggregator: 'max',
      async collect() {
        const ages = await read(oldestDueJobAges(db)).catch(() => undefined);
        if (!ages) return;
        for (const queue of jobs.queues) this.labels(queue).set(ages.get(queue) ?? 0);
      },
    });
  }
  new Gauge({
    name: 'campus_mail_outbox_depth',
    help: 'E-mails written and not sent yet',
    aggregator: 'max',
    async collect() {
      const depth = await read(mailOutboxDepth(db)).catch(() => undefined);
      if (depth !== undefined) this.set(depth);
    },
  });
  new Gauge({
    name: 'campus_push_outbox_depth',
    help: 'Push messages written and not sent yet',
    aggregator: 'max',
    async collect() {
      const depth = await read(pushOutboxDepth(db)).catch(() => undefined);
      if (depth !== undefined) this.set(depth);
    },
  });
}
