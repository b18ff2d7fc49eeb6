/** The subscribe-contention scenario across two server processes, and its target. */
import type postgres from 'postgres';
import { subscribeContention, type ContentionResult } from './match-subscribe';
import { POOL_MAX, scale, tokenOf } from './options';
import type { Ratio } from './ratios';
import type { Seeded } from './seeding';
import { startServer, stopProcess, type Service } from './support';

/** 1,000 subscribes at once on one match, across the main server and a second process. */
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
    return await subscribeContention([server.url, second.url], sql, matchId, 100, players);
  } finally {
    await stopProcess(second);
  }
}

export function contentionRatio(c: ContentionResult): Ratio {
  const subscribe = c.rounds[1]!.burst;
  const ok = [...c.invariants, ...c.answers].every(([, holds]) => holds);
  return {
    target: `subscribe contention: ${c.users} at once, p99 (ms) and invariants`,
    value: subscribe.p99,
    goal: '≤ 250 ms, all hold',
    met: subscribe.p99 <= 250 && ok,
    detail: `p99 ${subscribe.p99.toFixed(0)} ms; invariants and answers ${ok ? 'all hold' : 'BROKEN'}`,
  };
}
