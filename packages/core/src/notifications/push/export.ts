import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { notifications } from '../table';
import { pushOutbox, pushPreferences, pushSubscriptions } from './table';

/** The push endpoint's host (`https://host/…` → `host`): the endpoint itself is a capability. */
const hostOf = sql<string>`split_part(split_part(${pushSubscriptions.endpoint}, '://', 2), '/', 1)`;

/** The export's push sections (docs/contract/push.md, Personal data). */
export const pushSections = (db: Executor, userId: string) => ({
  dispositivosPush: db
    .select({
      id: pushSubscriptions.id,
      endpointHost: hostOf,
      createdAt: pushSubscriptions.createdAt,
      updatedAt: pushSubscriptions.updatedAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId)),
  preferenciasDeNotificacao: db
    .select({ type: pushPreferences.type, push: pushPreferences.push })
    .from(pushPreferences)
    .where(eq(pushPreferences.userId, userId)),
  enviosPush: db
    .select({
      notificationId: pushOutbox.notificationId,
      subscriptionId: pushOutbox.subscriptionId,
      attempts: pushOutbox.attempts,
      createdAt: pushOutbox.createdAt,
      sentAt: pushOutbox.sentAt,
    })
    .from(pushOutbox)
    .innerJoin(notifications, eq(notifications.id, pushOutbox.notificationId))
    .where(eq(notifications.userId, userId)),
});
