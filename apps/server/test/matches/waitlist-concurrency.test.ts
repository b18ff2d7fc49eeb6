import { notifications } from '@campus/core';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onTestApp, testAuthConfig, type TestApp, type TestUser } from '../support/app';
import {
  createMatch,
  createUsers,
  expectSeatInvariants,
  playerRows,
  waitlistRows,
} from '../support/matches';
import { isReady, runServer, waitFor, type ServerProcess } from '../support/process';
import { startSecondInstance } from '../support/two-instances';

/**
 * The waiting list under simultaneous requests (docs/contract/matches.md, Waiting list): never over
 * capacity, every spot that opens goes to the first in line, nobody promoted twice, nobody both
 * playing and waiting. Every request of a burst is sent before any answer is awaited.
 */

let t: TestApp;
onTestApp((app) => (t = app));

/** Sends one request through one of the servers; the answer's status and body. */
type Send = (
  server: number,
  method: 'POST' | 'DELETE',
  path: string,
  user: TestUser,
) => Promise<{ status: number; body: Record<string, unknown> }>;

const viaApps =
  (apps: Array<TestApp['request']>): Send =>
  async (server, method, path, user) => {
    const request = apps[server % apps.length]!;
    const res = await (method === 'POST' ? request.post(path) : request.delete(path)).set(
      user.auth,
    );
    return { status: res.status, body: res.body as Record<string, unknown> };
  };

/**
 * 10 play, 30 join the waiting list at once, then 5 players leave at once: exactly the first 5
 * in line play, in line order, and the other 25 still wait in their order.
 */
async function thirtyWaitFiveLeave(send: Send) {
  const author = await t.createUser();
  const match = await createMatch(t, author, { maxPlayers: 10 });
  const players = await createUsers(t, 10);
  for (const p of players) {
    expect((await send(0, 'POST', `/match/${match.id}/subscribe`, p)).status).toBe(201);
  }
  const waiting = await createUsers(t, 30);
  const joins = await Promise.all(
    waiting.map((u, i) => send(i, 'POST', `/match/${match.id}/waitlist`, u)),
  );
  expect(joins.map((r) => r.status)).toEqual(waiting.map(() => 201));
  const line = await waitlistRows(t, match.id);
  expect([...line].sort()).toEqual(waiting.map((u) => u.id).sort());

  const leaves = await Promise.all(
    players.slice(0, 5).map((p, i) => send(i, 'DELETE', `/match/${match.id}/unsubscribe`, p)),
  );
  expect(leaves.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

  const rows = (await playerRows(t, match.id)).sort(
    (a, b) => a.subscribedAt.getTime() - b.subscribedAt.getTime(),
  );
  expect(rows).toHaveLength(10);
  const promoted = rows.filter((r) => line.includes(r.userId)).map((r) => r.userId);
  expect(promoted).toEqual(line.slice(0, 5));
  expect(await waitlistRows(t, match.id)).toEqual(line.slice(5));
  expect(await expectSeatInvariants(t, match.id)).toEqual({ players: 10, waiting: 25 });
  const granted = await t.db
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(
      and(
        eq(notifications.type, 'MATCH_SPOT_GRANTED'),
        inArray(
          notifications.userId,
          waiting.map((u) => u.id),
        ),
      ),
    );
  expect(granted.map((g) => g.userId).sort()).toEqual(line.slice(0, 5).sort());
}

/** Joins and leaves all at once: whoever finds a spot free subscribes instead; invariants hold. */
async function everythingAtOnce(send: Send) {
  const author = await t.createUser();
  const match = await createMatch(t, author, { maxPlayers: 10 });
  const players = await createUsers(t, 10);
  for (const p of players) await send(0, 'POST', `/match/${match.id}/subscribe`, p);
  const newcomers = await createUsers(t, 30);
  const [joins, leaves] = await Promise.all([
    Promise.all(
      newcomers.map(async (u, i) => {
        const joined = await send(i, 'POST', `/match/${match.id}/waitlist`, u);
        if (joined.body.reason !== 'MATCH_NOT_FULL') return joined;
        return send(i, 'POST', `/match/${match.id}/subscribe`, u);
      }),
    ),
    Promise.all(
      players.slice(0, 5).map((p, i) => send(i, 'DELETE', `/match/${match.id}/unsubscribe`, p)),
    ),
  ]);
  expect(leaves.filter((r) => r.status !== 200)).toEqual([]);
  // Each newcomer got a place (in play or in line), or lost the free seat to another: the
  // answers that are neither, with their bodies, when there are any.
  expect(joins.filter((r) => r.status !== 201 && r.body.reason !== 'MATCH_FULL')).toEqual([]);
  const seats = await expectSeatInvariants(t, match.id);
  expect(seats.players).toBe(10);
  const rows = await playerRows(t, match.id);
  expect(new Set(rows.map((r) => r.userId)).size).toBe(10);
  const newcomersIn = rows.filter((r) => newcomers.some((u) => u.id === r.userId)).length;
  expect(newcomersIn).toBe(5);
  expect(seats.waiting).toBe(30 - 5 - joins.filter((r) => r.status !== 201).length);
}

describe('waiting list under contention (one process)', { tags: ['postgres-only'] }, () => {
  it('30 join a full 10-player match, then 5 leave at once: the first 5 in line play, in order', async () => {
    await thirtyWaitFiveLeave(viaApps([t.request]));
  });

  it('30 join while 5 leave, all at once: 10 players, nobody twice, nobody both playing and waiting', async () => {
    await everythingAtOnce(viaApps([t.request]));
  });
});

describe('waiting list under contention (two app instances)', { tags: ['postgres-only'] }, () => {
  it('the same, the requests split between two instances with their own pools', async () => {
    const second = await startSecondInstance(t);
    try {
      const send = viaApps([t.request, second.request]);
      await thirtyWaitFiveLeave(send);
      await everythingAtOnce(send);
    } finally {
      await second.close();
    }
  });
});

describe(
  'waiting list under contention (two server processes)',
  { tags: ['postgres-only'] },
  () => {
    let servers: ServerProcess[] = [];
    beforeAll(async () => {
      if (t.database.kind !== 'postgres') return;
      servers = [0, 1].map(() =>
        runServer({
          DATABASE_URL: t.database.url!,
          JWT_SECRET: testAuthConfig.jwtSecret,
          DATABASE_POOL_MAX: '8',
          JOBS: 'off',
        }),
      );
      for (const s of servers) await waitFor(() => isReady(s), 90_000, 'server process ready');
    }, 200_000);
    afterAll(async () => {
      for (const s of servers) s.child.kill('SIGKILL');
      await Promise.all(servers.map((s) => s.exited));
    });

    const viaProcesses: Send = async (server, method, path, user) => {
      const res = await fetch(`${servers[server % 2]!.url}${path}`, {
        method,
        headers: user.auth as Record<string, string>,
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    };

    it('30 join, then 5 leave at once, through two real processes: the first 5 in line play', async () => {
      await thirtyWaitFiveLeave(viaProcesses);
      await everythingAtOnce(viaProcesses);
    }, 120_000);
  },
);
