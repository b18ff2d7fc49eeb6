import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { pushVapidKeys } from './table';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The pair every process signs with: the configured one (VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY),
 * else the one kept in the database. The first process makes it; two starting at once both try
 * to insert row 1 and `on conflict do nothing` keeps the first, which both then read.
 */
export async function vapidKeysOf(db: Database, configured?: VapidKeys): Promise<VapidKeys> {
  if (configured) return configured;
  const read = async () =>
    (
      await db
        .select({ publicKey: pushVapidKeys.publicKey, privateKey: pushVapidKeys.privateKey })
        .from(pushVapidKeys)
        .where(eq(pushVapidKeys.id, 1))
    )[0];
  const existing = await read();
  if (existing) return existing;
  // web-push (about 12 MB resident) is loaded when a pair must be made or a message sent.
  const { default: webpush } = await import('web-push');
  await db
    .insert(pushVapidKeys)
    .values({ id: 1, ...webpush.generateVAPIDKeys() })
    .onConflictDoNothing();
  const kept = await read();
  if (!kept) throw new Error('the VAPID key pair could not be kept');
  return kept;
}
