import { z } from 'zod';
import type { NotificationService } from './service';

/**
 * The notifications' jobs, run by the host's PostgreSQL job queue (pg-boss). Each is a named
 * handler with a zod-typed payload, idempotent, so a retry or a second process does no harm.
 */
export const notificationJobs = {
  /** Writes the reminders that fell due (every minute by the queue's schedule, and at boot). */
  'reminders-sweep': {
    payload: z.object({}).passthrough(),
    /** A cron expression for the queue's scheduler (distributed: one run per minute in all). */
    schedule: '* * * * *',
    handler: (services: { notifications: NotificationService }) =>
      services.notifications.sweepReminders(),
  },
} as const;
export type NotificationJobName = keyof typeof notificationJobs;
