import { accountStatusChanges, users } from '@campus/core';
import { asc, eq } from 'drizzle-orm';
import type { TestApp } from './app';

type Auth = Record<string, string>;

/** The administration calls and the rows they leave, on the test app `app()` returns when called. */
export function adminHelpers(app: () => TestApp) {
  const historyOf = (userId: string) =>
    app()
      .db.select()
      .from(accountStatusChanges)
      .where(eq(accountStatusChanges.userId, userId))
      .orderBy(asc(accountStatusChanges.changedAt));
  return {
    patchStatus: (auth: Auth, id: string, status: unknown) =>
      app().request.patch(`/admin/usuarios/${id}/status`).set(auth).send({ status }),
    trpcQuery: (procedure: string, input: object, auth: Auth = {}) =>
      app()
        .request.get(`/trpc/admin.${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)
        .set(auth),
    trpcMutation: (procedure: string, input: object, auth: Auth = {}) =>
      app().request.post(`/trpc/admin.${procedure}`).set(auth).send(input),
    historyOf,
    statusOf: async (userId: string) =>
      (await app().db.select({ status: users.status }).from(users).where(eq(users.id, userId)))[0]
        ?.status,
  };
}

type StatusChange = typeof accountStatusChanges.$inferSelect;

/**
 * The history in time order. Records of the same instant (PGlite's clock counts milliseconds)
 * are taken in the order that continues the chain from `start`, when one does.
 */
export function asChain(start: string, records: StatusChange[]): StatusChange[] {
  const pending = [...records];
  const chain: StatusChange[] = [];
  let current = start;
  while (pending.length) {
    const instant = pending[0]!.changedAt.getTime();
    const next = pending.findIndex(
      (r) => r.changedAt.getTime() === instant && r.fromStatus === current,
    );
    const [record] = pending.splice(Math.max(next, 0), 1);
    chain.push(record!);
    current = record!.toStatus;
  }
  return chain;
}
