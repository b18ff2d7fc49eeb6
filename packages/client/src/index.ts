export { createClient, MAX_BATCH_SIZE, type CampusClient, type ClientOptions } from './client.js';
export type { ConnectionOptions } from './connection.js';
export { errorDataOf, isClientError, reasonOf, type ClientError } from './errors.js';
export type { AppRouter, ErrorShape } from './generated/router.js';
export type {
  AppErrorCode,
  ErrorData,
  Group,
  Match,
  Notification,
  Post,
  Reason,
  RouterInputs,
  RouterOutputs,
  Usuario,
} from './types.js';
