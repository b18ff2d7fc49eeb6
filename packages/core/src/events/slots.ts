import { AppError } from '../errors';

/**
 * Open live streams per user in this process, at most `max` each (one tab needs one
 * notification stream and one stream per page): past that, 429 `TOO_MANY_STREAMS`.
 */
export function createStreamSlots(max: number) {
  const open = new Map<string, number>();
  return {
    /** Takes a slot for `userId`; the returned function gives it back (once). */
    take(userId: string): () => void {
      const n = open.get(userId) ?? 0;
      if (n >= max) {
        throw new AppError('TOO_MANY_REQUESTS', `At most ${max} open streams per user`, {
          reason: 'TOO_MANY_STREAMS',
        });
      }
      open.set(userId, n + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
    },
    openFor: (userId: string) => open.get(userId) ?? 0,
  };
}
export type StreamSlots = ReturnType<typeof createStreamSlots>;
