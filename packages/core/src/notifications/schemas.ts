import { z } from 'zod';
import { cursorListMetaSchema, cursorPageQuery } from '../common/pagination';
import { NOTIFICATION_TYPES } from './enums';

/**
 * Notifications (docs/contract/notifications.md): English paths and fields, messages in Portuguese.
 */

export const notificationSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(NOTIFICATION_TYPES),
    message: z.string().describe('In Portuguese, ready to show'),
    data: z.object({
      postId: z.uuid().optional(),
      commentId: z.uuid().optional(),
      matchId: z.uuid().optional(),
      groupId: z.uuid().optional(),
    }),
    read: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notificationSchema>;

/** A query-string flag (REST and /trpc alike send the text `true` or `false`). */
const unreadFlag = z
  .enum(['true', 'false'], { error: 'unread must be true or false' })
  .transform((value) => value === 'true');

export const listNotificationsInput = cursorPageQuery(50).extend({
  unread: unreadFlag.optional().describe('true: only unread notifications'),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsInput>;

export const notificationListResponse = z.object({
  data: z.array(notificationSchema),
  meta: cursorListMetaSchema,
});

export const notificationIdInput = z.object({ id: z.uuid('id must be a UUID') });
export const unreadCountSchema = z.object({ count: z.number().int() });
export const readAllResponse = z.object({ updated: z.number().int() });

/** Where a reconnecting stream resumes: the `id` of the last event it received. */
export const notificationStreamInput = z
  .object({
    lastEventId: z
      .string()
      .regex(/^\d{1,18}$/, 'lastEventId must be an event id')
      .nullish(),
  })
  .optional();

/** One event of the notification stream: a new notification (with the count after it), or the count alone. */
export const notificationStreamEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('notification'),
    notification: notificationSchema,
    unreadCount: z.number().int(),
  }),
  z.object({ kind: z.literal('unread'), unreadCount: z.number().int() }),
]);
export type NotificationStreamEvent = z.infer<typeof notificationStreamEvent>;
