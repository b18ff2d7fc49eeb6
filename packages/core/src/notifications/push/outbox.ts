import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { notifications } from '../table';
import { pushPayloadOf, urgencyOf } from './messages';
import { sendPush, type PushAnswer, type PushTransport } from './delivery';
import { pushOutbox, pushSubscriptions } from './table';

const ENQUEUE_SLICE = 1000;

/**
 * Writes a push outbox row for each of these notifications and each subscription of its person
 * (unless they turned its type off), inside the notifications' transaction: the rows exist, and
 * will be sent, only if it commits. The unique pair makes a second call harmless.
 */
export async function enqueuePush(ex: Executor, notificationIds: string[]): Promise<void> {
  for (let start = 0; start < notificationIds.length; start += ENQUEUE_SLICE) {
    const ids = notificationIds.slice(start, start + ENQUEUE_SLICE);
    await ex.execute(sql`
      insert into push_outbox (notification_id, subscription_id)
      select n.id, s.id
      from notifications n join push_subscriptions s on s.user_id = n.user_id
      where n.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
        and not exists (select 1 from push_preferences p
                        where p.user_id = n.user_id and p.type = n.type and not p.push)
      on conflict do nothing`);
  }
}

export interface PushDeliveryOptions {
  transport: () => Promise<PushTransport>;
  /** The push service keeps an undelivered message this long (`TTL`); the outbox too. */
  ttlSeconds: number;
  log?: (fields: Record<string, unknown>, message: string) => void;
}

export interface PushDrainOutcome {
  sent: number;
  failed: number;
  /** Seconds until the earliest message still waiting is due; null when none waits. */
  nextDueInSeconds: number | null;
}

/** Messages sent at once per run; a run goes on until nothing due is left. */
const BATCH = 50;
/** A failed message waits 2^attempts seconds (at most this, or the service's Retry-After). */
const MAX_BACKOFF_S = 600;
const KEEP_SENT_DAYS = 7;

type Verdict = 'sent' | 'retry' | 'gone' | 'refused';
const verdictOf = ({ status }: PushAnswer): Verdict =>
  status >= 200 && status < 300
    ? 'sent'
    : status === 404 || status === 410
      ? 'gone'
      : status === 429 || status >= 500
        ? 'retry'
        : 'refused';

/**
 * The outbox's sender (`push-drain`): due rows are locked with SKIP LOCKED, so processes drain
 * side by side and a row is sent by one of them; it is marked sent in the same transaction. A
 * 429/5xx or a network failure is tried again later; 404/410 delete the subscription (after the
 * batch commits: its other rows go with it); another refusal, or a message past its TTL, is
 * dropped and logged.
 */
export function createPushDelivery(db: Database, options: PushDeliveryOptions) {
  const log = options.log ?? (() => {});

  async function drainBatch(transport: PushTransport) {
    const gone = new Set<string>();
    const outcome = await db.transaction(async (tx) => {
      const due = await tx
        .select({
          id: pushOutbox.id,
          attempts: pushOutbox.attempts,
          expired: sql<boolean>`${pushOutbox.createdAt} < now() - make_interval(secs => ${options.ttlSeconds})`,
          subscriptionId: pushSubscriptions.id,
          endpoint: pushSubscriptions.endpoint,
          p256dh: pushSubscriptions.p256dh,
          auth: pushSubscriptions.auth,
          notification: {
            id: notifications.id,
            type: notifications.type,
            message: notifications.message,
            data: notifications.data,
          },
        })
        .from(pushOutbox)
        .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
        .innerJoin(notifications, eq(notifications.id, pushOutbox.notificationId))
        .where(and(isNull(pushOutbox.sentAt), lte(pushOutbox.nextAttemptAt, sql`now()`)))
        .orderBy(asc(pushOutbox.nextAttemptAt))
        .limit(BATCH)
        .for('update', { of: pushOutbox, skipLocked: true });
      const answers = await Promise.allSettled(
        due.map((row) =>
          row.expired
            ? Promise.resolve<PushAnswer>({ status: 0 })
            : sendPush(
                {
                  endpoint: row.endpoint,
                  keys: { p256dh: row.p256dh, auth: row.auth },
                  payload: JSON.stringify(pushPayloadOf(row.notification)),
                  ttlSeconds: options.ttlSeconds,
                  urgency: urgencyOf(row.notification.type),
                },
                transport,
              ),
        ),
      );
      const sentIds: string[] = [];
      const droppedIds: string[] = [];
      let failed = 0;
      for (const [i, settled] of answers.entries()) {
        const row = due[i]!;
        const answer = settled.status === 'fulfilled' ? settled.value : undefined;
        const verdict = row.expired ? 'refused' : answer ? verdictOf(answer) : 'retry';
        const why = answer
          ? `HTTP ${answer.status}`
          : String((settled as PromiseRejectedResult).reason?.message ?? settled);
        if (verdict === 'sent') sentIds.push(row.id);
        else if (verdict === 'gone') gone.add(row.subscriptionId);
        else if (verdict === 'refused') {
          droppedIds.push(row.id);
          log({ pushId: row.id, why: row.expired ? 'expired' : why }, 'push dropped');
        } else {
          failed++;
          const attempts = row.attempts + 1;
          const wait = Math.min(MAX_BACKOFF_S, answer?.retryAfterSeconds ?? 2 ** attempts);
          await tx
            .update(pushOutbox)
            .set({
              attempts,
              nextAttemptAt: sql`now() + make_interval(secs => ${wait})`,
              lastError: why.slice(0, 500),
            })
            .where(eq(pushOutbox.id, row.id));
          log({ pushId: row.id, attempts, retryInSeconds: wait, why }, 'push not sent');
        }
      }
      if (sentIds.length)
        await tx
          .update(pushOutbox)
          .set({ sentAt: sql`now()`, attempts: sql`${pushOutbox.attempts} + 1` })
          .where(inArray(pushOutbox.id, sentIds));
      if (droppedIds.length) await tx.delete(pushOutbox).where(inArray(pushOutbox.id, droppedIds));
      return { sent: sentIds.length, failed, seen: due.length };
    });
    // Outside the batch's transaction: two drains each holding rows of one subscription must not
    // wait on each other (a deadlock would roll back messages already sent).
    if (gone.size) {
      await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, [...gone]));
      log({ subscriptions: gone.size }, 'push subscriptions gone (404/410): deleted');
    }
    return outcome;
  }

  return {
    /** Sends what is due; a failed message is retried later with a growing wait. */
    async drain(): Promise<PushDrainOutcome> {
      const transport = await options.transport();
      let sent = 0;
      let failed = 0;
      for (;;) {
        const batch = await drainBatch(transport);
        sent += batch.sent;
        failed += batch.failed;
        if (batch.seen < BATCH) break;
      }
      await db
        .delete(pushOutbox)
        .where(
          and(
            isNotNull(pushOutbox.sentAt),
            lt(pushOutbox.sentAt, sql`now() - make_interval(days => ${KEEP_SENT_DAYS})`),
          ),
        );
      const [next] = await db
        .select({
          seconds: sql<
            string | null
          >`ceil(greatest(0, extract(epoch from min(${pushOutbox.nextAttemptAt}) - now())))::text`,
        })
        .from(pushOutbox)
        .where(isNull(pushOutbox.sentAt));
      return {
        sent,
        failed,
        nextDueInSeconds: next?.seconds == null ? null : Number(next.seconds),
      };
    },
  };
}

/** Messages written and not sent yet (for /metrics). */
export async function pushOutboxDepth(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pushOutbox)
    .where(isNull(pushOutbox.sentAt));
  return row?.n ?? 0;
}
