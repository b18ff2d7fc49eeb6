import {
  listNotificationsInput,
  notificationIdInput,
  notificationListResponse,
  notificationSchema,
  readAllResponse,
  unreadCountSchema,
} from '@campus/core';
import { z } from 'zod';
import { domainProcedures, router } from '../trpc';
import { pushProcedures } from './push';

const { authedProcedure } = domainProcedures('en');

const tags = ['Notifications'];
const unauthorized = { 401: 'Token missing or invalid' };

/**
 * The caller's inbox (docs/contract/notifications.md). Notifications are written by the domains
 * that cause them.
 */
export const notificationsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/notifications',
        operationId: 'listNotifications',
        tags,
        summary: "The caller's notifications, newest first",
        errorResponses: {
          400: 'Invalid page, limit (1-50) or unread, or a cursor made for another list, filters or user (INVALID_CURSOR)',
          ...unauthorized,
        },
      },
      reasons: { 400: ['INVALID_CURSOR'] },
    })
    .input(listNotificationsInput)
    .output(notificationListResponse)
    .query(({ ctx, input }) => ctx.services.notifications.list(ctx.actor.id, input)),

  unreadCount: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/notifications/unread-count',
        operationId: 'getUnreadNotificationCount',
        tags,
        summary: "How many of the caller's notifications are unread",
        errorResponses: { ...unauthorized },
      },
    })
    .input(z.void())
    .output(unreadCountSchema)
    .query(({ ctx }) => ctx.services.notifications.unreadCount(ctx.actor.id)),

  markRead: authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/notifications/{id}/read',
        operationId: 'updateNotificationRead',
        tags,
        summary: 'Mark one notification read (idempotent)',
        errorResponses: {
          400: 'id is not a UUID',
          ...unauthorized,
          404: "Notification not found (someone else's included)",
        },
      },
    })
    .input(notificationIdInput)
    .output(notificationSchema)
    .mutation(({ ctx, input }) => ctx.services.notifications.markRead(input.id, ctx.actor.id)),

  readAll: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/notifications/read-all',
        operationId: 'updateAllNotificationsRead',
        tags,
        summary: "Mark all the caller's notifications read",
        successDescription: 'How many were unread',
        errorResponses: { ...unauthorized },
      },
    })
    .input(z.void())
    .output(readAllResponse)
    .mutation(({ ctx }) => ctx.services.notifications.readAll(ctx.actor.id)),

  ...pushProcedures,
});
