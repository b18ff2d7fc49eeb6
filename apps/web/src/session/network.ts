import type { AppRouter } from '@campus/api';
import type { TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { readFailure } from '../lib/errors';

/*
 * The network side of every action (a call's bounded wait is in bounded-fetch.ts): an
 * `Idempotency-Key` on each so that trying it again never does it twice
 * (docs/contract/protocol.md, Idempotency-Key; the server honours it on creates, over REST and
 * /trpc alike). Nothing is queued: an action that fails
 * offline stays failed until the user tries again (main.tsx: mutations run with networkMode
 * 'always', no retries).
 */

/** 128 random bits as hex (crypto.randomUUID needs a secure context; this does not). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const IDEMPOTENCY_KEY = 'idempotencyKey';

/**
 * Gives every mutation an idempotency key in its context (the HTTP link sends it as the
 * `Idempotency-Key` header). The same action with the same input, tried again after its answer
 * was lost (offline, timeout), gets the same key: if the first one did reach the server, the
 * server answers its stored answer instead of creating again. Any answer from the server frees
 * the key (but "still running": the first attempt has it), so a later identical action is new.
 */
export function idempotencyLink(): TRPCLink<AppRouter> {
  const unanswered = new Map<string, string>();
  return () =>
    ({ op, next }) => {
      if (op.type !== 'mutation') return next(op);
      const action = `${op.path}\n${JSON.stringify(op.input ?? null)}`;
      const key = unanswered.get(action) ?? newKey();
      unanswered.set(action, key);
      const sent = { ...op, context: { ...op.context, [IDEMPOTENCY_KEY]: key } };
      return observable((observer) =>
        next(sent).subscribe({
          next: (value) => {
            unanswered.delete(action);
            observer.next(value);
          },
          complete: () => observer.complete(),
          error: (error) => {
            const { httpStatus, reason } = readFailure(error);
            if (httpStatus !== undefined && reason !== 'IDEMPOTENCY_KEY_IN_USE')
              unanswered.delete(action);
            observer.error(error);
          },
        }),
      );
    };
}

/** The `Idempotency-Key` header of an operation, when it has one. */
export function idempotencyHeader(context: Record<string, unknown>): Record<string, string> {
  const key = context[IDEMPOTENCY_KEY];
  return typeof key === 'string' ? { 'Idempotency-Key': key } : {};
}
