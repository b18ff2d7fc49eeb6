/** The subscribe-contention scenario across two server processes, and its target. */
import type postgres from 'postgres';
import { subscribeContention, type ContentionResult } from './match-subscribe';
import { waitlistBurst } from './match-waitlist';
import { POOL_MAX, scale, tokenOf } from './options';
import type { Ratio } from './ratios';
import type { Seeded } from './seeding';
import { startServer, stopProcess, type Service } from './support';

/**
 * 1,000 subscribes at once on one match, across the main server and a second process; then the
 * waiting-list burst on another match (1,000 join a full match, 100 leave at once).
 */
export async function runContention(
  server: Service,
  large: Seeded,
  sql: postgres.Sql,
): Promise<ContentionResult> {
  const matchId = large.matchIds!.at(-1)!;
  await sql`update matches set max_players = 100 where id = ${matchId}`;
  const players = large.users
    .slice(0, scale.contention)
    .map((u) => ({ id: u.id, token: tokenOf(u) }));
  const second = await startServer('server (second process)', {
    DATABASE_URL: large.url,
    DATABASE_POOL_MAX: POOL_MAX,
  });
  try {
    const bases = [server.url, second.url];
    const result = await subscribeContention(bases, sql, matchId, 100, players);
    const seated = large.users.slice(0, 100).map((u) => ({ id: u.id, token: tokenOf(u) }));
    const joiners = large.users
      .slice(100, 100 + scale.contention)
      .map((u) => ({ id: u.id, token: tokenOf(u) }));
    const waitlist = await waitlistBurst(bases, sql, large.matchIds!.at(-2)!, seated, joiners);
    return {
      ...result,
      rounds: [...result.rounds, ...waitlist.rounds],
      invariants: [...result.invariants, ...waitlist.invariants],
      answers: [...result.answers, ...waitlist.answers],
    };
  } finally {
    await stopProcess(second);
  }
}

/**
 * The subscribe burst's p99 against the unlocked GET burst's p99 of the same run (issue 15: an
 * admission holds the match row for one statement, so subscribes no longer queue behind it).
 */
export function contentionRatio(c: ContentionResult): Ratio {
  const baseline = c.rounds[0]!.burst;
  const subscribe = c.rounds[1]!.burst;
  const ok = [...c.invariants, ...c.answers].every(([, holds]) => holds);
  const value = subscribe.p99 / baseline.p99;
  return {
    target: `subscribe contention: ${c.users} at once, p99 subscribe / p99 unlocked GET, invariants`,
    value,
    goal: '≤ 1.30, all hold',
    met: value <= 1.3 && ok,
    detail: `${subscribe.p99.toFixed(0)} ms / ${baseline.p99.toFixed(0)} ms; invariants and answers (subscribe and waiting-list bursts) ${ok ? 'all hold' : 'BROKEN'}`,
  };
}
