import { z } from 'zod';
import type { PushService } from './service';

/**
 * The push outbox's jobs. `push-drain` sends what is due: at once after a notification commits
 * (the host wakes it from the bus's `notification` events), when a failed message's next try
 * falls due (`push-retry`, sent by the host for that moment), and every minute by the schedule,
 * the net under everything (a process that died mid-drain, a missed wake-up).
 */
const drain = {
  payload: z.object({}).passthrough(),
  handler: (services: { push: PushService }) => services.push.drain(),
};
export const pushJobs = {
  'push-drain': { ...drain, schedule: '* * * * *' },
  'push-retry': { ...drain, schedule: undefined },
} as const;
