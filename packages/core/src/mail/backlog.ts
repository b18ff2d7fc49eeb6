import { isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { mailOutbox } from './table';

/** E-mails written and not sent yet (for /metrics). */
export async function mailOutboxDepth(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(isNull(mailOutbox.sentAt));
  return row?.n ?? 0;
}
