import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { NOTIFICATION_TYPES, type NotificationType } from '../enums';
import type { PushTransport } from './delivery';
import { allowedEndpoint, DEFAULT_PUSH_ENDPOINT_HOSTS } from './endpoint';
import { createPushDelivery } from './outbox';
import type {
  PushPreferences,
  PushPreferencesPatch,
  PushSubscription,
  PushSubscriptionInput,
} from './schemas';
import { pushPreferences, pushSubscriptions } from './table';
import { vapidKeysOf, type VapidKeys } from './vapid';

export interface PushOptions {
  /** PUSH_ENDPOINT_HOSTS: where endpoints may point (default: the browsers' push services). */
  endpointHosts?: readonly string[];
  /** VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY; absent → a pair kept in the database. */
  vapidKeys?: VapidKeys | undefined;
  /** VAPID_SUBJECT: a mailto: or https: contact for the push services. */
  subject?: string;
  /** How long a push service keeps an undelivered message (and the outbox tries). */
  ttlSeconds?: number;
  timeoutMs?: number;
  log?: (fields: Record<string, unknown>, message: string) => void;
}

export const DEFAULT_PUSH_TTL_S = 24 * 3600;

/** Web Push (docs/contract/push.md): the key, the caller's subscriptions and preferences, the sender. */
export function createPushService(db: Database, options: PushOptions = {}) {
  const hosts = options.endpointHosts ?? DEFAULT_PUSH_ENDPOINT_HOSTS;
  let keys: Promise<VapidKeys> | undefined;
  const vapidKeys = () => {
    keys ??= vapidKeysOf(db, options.vapidKeys).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  const transport = async (): Promise<PushTransport> => ({
    hosts,
    vapid: {
      subject: options.subject ?? 'mailto:nao-responda@campus.invalid',
      ...(await vapidKeys()),
    },
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  const delivery = createPushDelivery(db, {
    transport,
    ttlSeconds: options.ttlSeconds ?? DEFAULT_PUSH_TTL_S,
    ...(options.log ? { log: options.log } : {}),
  });

  return {
    ...delivery,

    publicKey: async () => ({ publicKey: (await vapidKeys()).publicKey }),

    /**
     * Keeps the browser's subscription for `userId`: new → created; a known endpoint moves to the
     * caller (one browser, one account at a time), and what it still had to send for the previous
     * account is dropped.
     */
    async subscribe(userId: string, input: PushSubscriptionInput): Promise<PushSubscription> {
      const url = allowedEndpoint(input.endpoint, hosts);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(pushSubscriptions)
          .values({ userId, endpoint: input.endpoint, ...input.keys })
          .onConflictDoUpdate({
            target: pushSubscriptions.endpoint,
            set: {
              userId,
              p256dh: input.keys.p256dh,
              auth: input.keys.auth,
              updatedAt: sql`now()`,
            },
          })
          .returning({
            id: pushSubscriptions.id,
            createdAt: pushSubscriptions.createdAt,
            created: sql<boolean>`(xmax = 0)`,
          });
        if (!row!.created)
          await tx.execute(sql`
            delete from push_outbox o using notifications n
            where o.notification_id = n.id and o.subscription_id = ${row!.id}
              and o.sent_at is null and n.user_id <> ${userId}`);
        return {
          id: row!.id,
          endpointHost: url.host,
          createdAt: row!.createdAt.toISOString(),
          created: Boolean(row!.created),
        };
      });
    },

    /** Forgets the caller's subscription at `endpoint` (none: nothing to do). */
    async unsubscribe(userId: string, endpoint: string): Promise<void> {
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)));
    },

    async preferences(userId: string): Promise<PushPreferences> {
      const rows = await db
        .select({ type: pushPreferences.type, push: pushPreferences.push })
        .from(pushPreferences)
        .where(eq(pushPreferences.userId, userId));
      const off = new Set(rows.filter((r) => !r.push).map((r) => r.type));
      return {
        types: Object.fromEntries(
          NOTIFICATION_TYPES.map((type) => [type, { push: !off.has(type) }]),
        ) as PushPreferences['types'],
      };
    },

    async updatePreferences(userId: string, patch: PushPreferencesPatch): Promise<PushPreferences> {
      const values = Object.entries(patch.types)
        .filter(([, value]) => value !== undefined)
        .map(([type, value]) => ({ userId, type: type as NotificationType, push: value!.push }));
      if (values.length)
        await db
          .insert(pushPreferences)
          .values(values)
          .onConflictDoUpdate({
            target: [pushPreferences.userId, pushPreferences.type],
            set: { push: sql`excluded.push` },
          });
      return this.preferences(userId);
    },
  };
}
export type PushService = ReturnType<typeof createPushService>;
