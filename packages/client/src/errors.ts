import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from './generated/router.js';
import type { ErrorData, Reason } from './types.js';

/** A failed tRPC call: `error.data` holds the status, the service's code, `reason` and `issues`. */
export type ClientError = TRPCClientError<AppRouter>;

export function isClientError(error: unknown): error is ClientError {
  return error instanceof TRPCClientError;
}

/** The service's error data of a failed call (`undefined` for a network failure). */
export function errorDataOf(error: unknown): ErrorData | undefined {
  return isClientError(error) ? (error.data ?? undefined) : undefined;
}

/** The `reason` of a failed call, when its status has several causes. */
export function reasonOf(error: unknown): Reason | undefined {
  return errorDataOf(error)?.reason;
}
