import { z } from 'zod';
import type { MailService } from './outbox';

/**
 * The outbox's job: sends what is due. Run every minute by the queue's schedule (the net under
 * everything), at once after a change that wrote mail (`wakeUp`), and again when a failed
 * message's next try falls due (the host reads `nextDueInSeconds`).
 */
export const mailJobs = {
  'mail-drain': {
    payload: z.object({}).passthrough(),
    schedule: '* * * * *',
    handler: (services: { mail: MailService }) => services.mail.drain(),
  },
} as const;
