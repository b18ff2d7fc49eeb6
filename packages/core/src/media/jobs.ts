import { z } from 'zod';
import type { MediaService } from './service';

/** The photos' job, on the host's queue (pg-boss): one run per minute across processes. */
export const mediaJobs = {
  /** Deletes discarded images and unused uploads older than 24 h (docs/contract/media.md). */
  'media-cleanup': {
    payload: z.object({}).passthrough(),
    schedule: '* * * * *',
    handler: async (services: { media: MediaService }) => {
      let total = 0;
      for (let deleted = -1; deleted !== 0; total += deleted)
        deleted = await services.media.cleanUp();
      return total;
    },
  },
} as const;
