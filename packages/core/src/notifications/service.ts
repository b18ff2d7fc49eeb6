import { and, count, desc, eq, gt, isNull, lt, sql, asc } from 'drizzle-orm';
import { cursorScope, type Cursors } from '../db/cursor';
import type { Database, Executor } from '../db/client';
import { notFound } from '../errors';
import { publish, publishMany, type EventBus } from '../events/bus';
import { follow } from '../events/live';
import { enqueuePush } from './push/outbox';
import { toNotification } from './records';
import { DEFAULT_REMINDER_LEAD_S, sendDueReminders } from './reminders';
import type { ListNotificationsQuery, Notification, NotificationStreamEvent } from './schemas';
import type { NotificationType } from './enums';
import { notifications, type NotificationData } from './table';

export interface NewNotification {
  userId: string;
  type: NotificationType;
  /** In Portuguese. */
  message: string;
  data?: NotificationData;
  /** At most one notification per user with this key (reminders); a second is silently skipped. */
  dedupeKey?: string;
}

const NOTIFY_SLICE = 1000;

/**
 * Writes notifications inside the caller's transaction (`tx`), their push outbox rows
 * (docs/contract/push.md), and announces them on the bus: they exist, and are streamed and
 * pushed, only if that transaction commits. Returns how many were written.
 */
export async function notify(tx: Executor, items: NewNotification[]): Promise<number> {
  let written = 0;
  // In slices: one statement has at most 65,535 parameters (a group with many followers).
  for (let start = 0; start < items.length; start += NOTIFY_SLICE) {
    const rows = await tx
      .insert(notifications)
      .values(
        items
          .slice(start, start + NOTIFY_SLICE)
          .map((item) => ({ ...item, data: item.data ?? {} })),
      )
      .onConflictDoNothing()
      .returning({ id: notifications.id, userId: notifications.userId, seq: notifications.seq });
    await enqueuePush(
      tx,
      rows.map((row) => row.id),
    );
    await publishMany(
      tx,
      'notification',
      rows.map((row) => ({ key: row.userId, seq: row.seq })),
    );
    written += rows.length;
  }
  return written;
}

const recordColumns = {
  id: notifications.id,
  seq: notifications.seq,
  type: notifications.type,
  message: notifications.message,
  data: notifications.data,
  readAt: notifications.readAt,
  createdAt: notifications.createdAt,
};

/** At most this many missed notifications are replayed per read while catching up. */
const REPLAY_BATCH = 100;

/** A stream event and, for notifications, its resumable id (the inbox `seq`). */
/**
 * Marks read, inside the caller's transaction, the unread notifications of `type` about group
 * `groupId` (e.g. the join requests, once none is pending: nothing is left to do about them),
 * and announces the new counts of the inboxes it changed.
 */
export async function readGroupNotifications(
  tx: Executor,
  groupId: string,
  type: NotificationType,
): Promise<void> {
  const rows = await tx
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.type, type),
        isNull(notifications.readAt),
        sql`${notifications.data}->>'groupId' = ${groupId}`,
      ),
    )
    .returning({ userId: notifications.userId });
  const users = [...new Set(rows.map((row) => row.userId))];
  await publishMany(
    tx,
    'notification',
    users.map((key) => ({ key })),
  );
}

export interface StreamItem<T> {
  id?: string;
  data: T;
}

export function createNotificationService(
  db: Database,
  cursors: Cursors,
  bus?: EventBus,
  reminderLeadSeconds = DEFAULT_REMINDER_LEAD_S,
) {
  const unreadOf = (userId: string) =>
    and(eq(notifications.userId, userId), isNull(notifications.readAt));

  async function unreadCount(userId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(notifications).where(unreadOf(userId));
    return row?.n ?? 0;
  }

  /** The user's notifications after `seq`, oldest first. */
  const after = (userId: string, seq: number) =>
    db
      .select(recordColumns)
      .from(notifications)
      .where(and(eq(notifications.userId, userId), gt(notifications.seq, seq)))
      .orderBy(asc(notifications.seq))
      .limit(REPLAY_BATCH);

  return {
    /** Newest first (`seq` descending); a cursor continues below the last `seq` shown. */
    async list(userId: string, query: ListNotificationsQuery) {
      const where = query.unread ? unreadOf(userId) : eq(notifications.userId, userId);
      const scope = cursorScope('notifications', userId, query.unread ?? null);
      const position = cursors.positionOf(scope, query);
      const after = position.after && lt(notifications.seq, Number(position.after[0]));
      const [rows, [counted]] = await Promise.all([
        db
          .select(recordColumns)
          .from(notifications)
          .where(and(where, after))
          .orderBy(desc(notifications.seq))
          .limit(query.limit + 1)
          .offset(position.offset),
        db.select({ n: count() }).from(notifications).where(where),
      ]);
      return cursors.page(
        scope,
        position,
        query.limit,
        rows,
        counted?.n ?? 0,
        (row) => [String(row.seq)],
        toNotification,
      );
    },

    unreadCount: async (userId: string) => ({ count: await unreadCount(userId) }),

    /** Writes every reminder that fell due and was not written yet (the queue's sweep job). */
    sweepReminders: (): Promise<number> =>
      db.transaction((tx) => sendDueReminders(tx, reminderLeadSeconds)),

    /** Someone else's notification is not found, like an unknown one. */
    async markRead(id: string, userId: string): Promise<Notification> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(notifications)
          .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
          .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
          .returning(recordColumns);
        if (!row) throw notFound('Notification not found');
        await publish(tx, 'notification', { key: userId });
        return toNotification(row);
      });
    },

    async readAll(userId: string): Promise<{ updated: number }> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(notifications)
          .set({ readAt: sql`now()` })
          .where(unreadOf(userId))
          .returning({ id: notifications.id });
        if (rows.length) await publish(tx, 'notification', { key: userId });
        return { updated: rows.length };
      });
    },

    /**
     * The user's live inbox: first what was missed after `lastEventId` (from the table), then the
     * unread count, then every new notification (with the count after it) and every count change,
     * until `signal` aborts. After a lost listener connection it catches up from the table again.
     */
    async *stream(
      userId: string,
      lastEventId: number | undefined,
      signal: AbortSignal,
    ): AsyncGenerator<StreamItem<NotificationStreamEvent>, void, undefined> {
      if (!bus) throw new Error('notification streams need the event bus');
      const items = await follow(bus, 'notification', userId, signal);
      try {
        let last = lastEventId;
        if (last === undefined) {
          const [top] = await db
            .select({ seq: sql<number>`coalesce(max(${notifications.seq}), 0)`.mapWith(Number) })
            .from(notifications)
            .where(eq(notifications.userId, userId));
          last = top?.seq ?? 0;
        }
        const catchUp = async function* (): AsyncGenerator<StreamItem<NotificationStreamEvent>> {
          for (;;) {
            const rows = await after(userId, last!);
            if (rows.length === 0) return;
            const unread = await unreadCount(userId);
            for (const row of rows) {
              last = row.seq;
              yield {
                id: String(row.seq),
                data: {
                  kind: 'notification',
                  notification: toNotification(row),
                  unreadCount: unread,
                },
              };
            }
            if (rows.length < REPLAY_BATCH) return;
          }
        };
        yield* catchUp();
        yield { data: { kind: 'unread', unreadCount: await unreadCount(userId) } };
        for await (const item of items) {
          if (item.type === 'event' && item.event.seq === undefined) {
            yield { data: { kind: 'unread', unreadCount: await unreadCount(userId) } };
            continue;
          }
          if (item.type === 'event' && item.event.seq! <= last) continue;
          yield* catchUp();
          if (item.type === 'resync') {
            yield { data: { kind: 'unread', unreadCount: await unreadCount(userId) } };
          }
        }
      } finally {
        await items.return();
      }
    },
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
