import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyKeys } from './table';

/** How long a key is remembered, and how long a first request may run before a retry takes it over. */
export const IDEMPOTENCY_TTL_HOURS = 24;
export const IDEMPOTENCY_RUNNING_TIMEOUT_S = 120;

export interface IdempotencyScope {
  userId: string;
  key: string;
}

export type Claim =
  | { state: 'claimed' }
  | { state: 'replay'; status: number; body: unknown }
  | { state: 'mismatch' }
  | { state: 'running' };

/** A JSON text of `value` with object keys sorted, so the same input always prints the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestFingerprint = (procedure: string, input: unknown) =>
  createHash('sha256')
    .update(`${procedure}\n${canonicalJson(input)}`)
    .digest('hex');

/**
 * Idempotency keys on the database, so every process sees the same claims. A claim is one
 * statement: the insert wins, or takes over a row past its 24 h or a first request that has run
 * longer than `IDEMPOTENCY_RUNNING_TIMEOUT_S` (its process died); otherwise the row says whether
 * to replay, refuse another body, or wait for the first request.
 */
export function createIdempotencyService(db: Database) {
  const whereScope = ({ userId, key }: IdempotencyScope) =>
    and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  async function claim(
    scope: IdempotencyScope,
    procedure: string,
    fingerprint: string,
  ): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const won = await db
        .insert(idempotencyKeys)
        .values({ ...scope, procedure, fingerprint })
        .onConflictDoUpdate({
          target: [idempotencyKeys.userId, idempotencyKeys.key],
          set: { procedure, fingerprint, status: null, response: null, createdAt: sql`now()` },
          setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
            or (${idempotencyKeys.status} is null
                and ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${IDEMPOTENCY_RUNNING_TIMEOUT_S}))`,
        })
        .returning({ key: idempotencyKeys.key });
      if (won.length > 0) return { state: 'claimed' };
      const [row] = await db.select().from(idempotencyKeys).where(whereScope(scope));
      if (!row) continue; // released between the two statements: claim again
      if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
      if (row.status === null) return { state: 'running' };
      return { state: 'replay', status: row.status, body: row.response };
    }
    return { state: 'running' };
  }

  return {
    claim,
    /** Records the first request's answer, for the retries to replay. */
    async complete(scope: IdempotencyScope, status: number, body: unknown) {
      await db
        .update(idempotencyKeys)
        .set({ status, response: body ?? null })
        .where(whereScope(scope));
    },
    /** Forgets a claim whose request failed: nothing was created, so a retry runs again. */
    async release(scope: IdempotencyScope) {
      await db
        .delete(idempotencyKeys)
        .where(and(whereScope(scope), sql`${idempotencyKeys.status} is null`));
    },
  };
}
