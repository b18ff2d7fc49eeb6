import type { Notification } from './schemas';
import type { NotificationRow } from './table';

export type NotificationRecordRow = Pick<
  NotificationRow,
  'id' | 'type' | 'message' | 'data' | 'readAt' | 'createdAt'
>;

/** A row as the API shows it. */
export function toNotification(row: NotificationRecordRow): Notification {
  return {
    id: row.id,
    type: row.type,
    message: row.message,
    data: row.data,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}
