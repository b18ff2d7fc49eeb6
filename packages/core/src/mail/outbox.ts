import { and, asc, eq, isNull, lte, sql, lt, isNotNull } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database, Executor } from '../db/client';
import { mailOutbox } from './table';

/** One message, in Portuguese, as the outbox keeps it until it is sent. */
export interface MailMessage {
  /** The account it is about: the row goes when the account does. */
  userId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Writes a message to the outbox inside the caller's transaction: it exists, and will be sent,
 * only if that transaction commits.
 */
export async function enqueueMail(tx: Executor, message: MailMessage): Promise<void> {
  await tx.insert(mailOutbox).values(message);
}

/** nodemailer's SMTP transport for `SMTP_URL` (smtp:// or smtps://, credentials in the URL). */
export function createSmtpTransport(url: string): Transporter {
  return nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}

export interface MailOptions {
  /** The SMTP transport; absent → mail is disabled (see `logOnly`). */
  transport?: Transporter | undefined;
  /** `MAIL_FROM`. */
  from: string;
  /** The public address of the web app, for the links in messages (`APP_URL`). */
  appUrl: string;
  /**
   * Without a transport: true (development) writes each message, links included, to the log and
   * counts it as sent; false (production) keeps it in the outbox until SMTP is configured.
   */
  logOnly?: boolean;
  /** Where the outbox reports (the host's logger). */
  log?: (fields: Record<string, unknown>, message: string) => void;
}

/** Messages drained per run; a run goes on until nothing due is left. */
const BATCH = 20;
/** A failed message waits 2^attempts seconds (at most this) before its next try. */
const MAX_BACKOFF_S = 600;
/** Sent rows (already without their bodies) are kept this long, then dropped. */
const KEEP_SENT_DAYS = 30;

export interface DrainOutcome {
  sent: number;
  failed: number;
  /** Seconds until the earliest message still waiting is due; null when none waits. */
  nextDueInSeconds: number | null;
}

/** The outbox's sender: `drain` is the job queue's `mail-drain` handler. */
export function createMailService(db: Database, options: MailOptions) {
  const log = options.log ?? (() => {});
  let wake: () => void = () => {};

  async function deliver(row: typeof mailOutbox.$inferSelect): Promise<'sent' | 'kept'> {
    if (options.transport) {
      await options.transport.sendMail({
        from: options.from,
        to: row.to,
        subject: row.subject,
        text: row.text ?? '',
        html: row.html ?? undefined,
      });
      return 'sent';
    }
    if (options.logOnly) {
      log(
        { mail: { to: row.to, subject: row.subject, text: row.text } },
        'mail disabled (no SMTP_URL): message written to the log instead',
      );
      return 'sent';
    }
    return 'kept';
  }

  /** One batch of due messages, each locked (SKIP LOCKED: processes drain side by side). */
  async function drainBatch(): Promise<{ sent: number; failed: number; kept: number }> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), lte(mailOutbox.nextAttemptAt, sql`now()`)))
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      let sent = 0;
      let failed = 0;
      let kept = 0;
      for (const row of due) {
        try {
          if ((await deliver(row)) === 'kept') {
            kept++;
            continue;
          }
          await tx
            .update(mailOutbox)
            .set({ sentAt: sql`now()`, text: null, html: null, attempts: row.attempts + 1 })
            .where(eq(mailOutbox.id, row.id));
          sent++;
        } catch (error) {
          failed++;
          const attempts = row.attempts + 1;
          const wait = Math.min(MAX_BACKOFF_S, 2 ** attempts);
          await tx
            .update(mailOutbox)
            .set({
              attempts,
              nextAttemptAt: sql`now() + make_interval(secs => ${wait})`,
              lastError: String((error as Error)?.message ?? error).slice(0, 500),
            })
            .where(eq(mailOutbox.id, row.id));
          log({ mailId: row.id, attempts, retryInSeconds: wait, err: error }, 'mail not sent');
        }
      }
      return { sent, failed, kept };
    });
  }

  return {
    /** Called after a transaction that enqueued mail commits (the host starts a drain job). */
    wakeUp: () => wake(),
    /** The host's hook for `wakeUp`. */
    onWakeUp(handler: () => void) {
      wake = handler;
    },

    /** Sends what is due; a failed message is retried later with a growing wait. */
    async drain(): Promise<DrainOutcome> {
      let sent = 0;
      let failed = 0;
      for (;;) {
        const batch = await drainBatch();
        sent += batch.sent;
        failed += batch.failed;
        if (batch.sent + batch.failed < BATCH) {
          if (batch.kept > 0)
            log({ waiting: batch.kept }, 'mail disabled (no SMTP_URL): kept in the outbox');
          break;
        }
      }
      await db
        .delete(mailOutbox)
        .where(
          and(
            isNotNull(mailOutbox.sentAt),
            lt(mailOutbox.sentAt, sql`now() - make_interval(days => ${KEEP_SENT_DAYS})`),
          ),
        );
      const [next] = await db
        .select({
          waiting: sql<number>`count(*)::int`,
          seconds: sql<
            string | null
          >`ceil(greatest(0, extract(epoch from min(${mailOutbox.nextAttemptAt}) - now())))::text`,
        })
        .from(mailOutbox)
        .where(isNull(mailOutbox.sentAt));
      const canSend = Boolean(options.transport || options.logOnly);
      return {
        sent,
        failed,
        nextDueInSeconds:
          canSend && next?.waiting && next.seconds !== null ? Number(next.seconds) : null,
      };
    },
  };
}
export type MailService = ReturnType<typeof createMailService>;
