/** Every kind of notification of docs/contract/notifications.md, Types. */
export const NOTIFICATION_TYPES = [
  'POST_COMMENT',
  'GROUP_JOIN_REQUEST',
  'GROUP_JOIN_APPROVED',
  'GROUP_JOIN_REJECTED',
  'GROUP_POST',
  'MATCH_SPOT_GRANTED',
  'MATCH_CANCELLED',
  'MATCH_REMINDER',
  'EVENT_REMINDER',
  'CONTENT_HIDDEN',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
