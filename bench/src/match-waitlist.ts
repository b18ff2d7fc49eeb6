/**
 * The waiting list under a burst (docs/contract/matches.md, Waiting list): `joiners` users join the
 * waiting list of a full match (maxPlayers 100) at the same moment, then 100 players leave at the
 * same moment, the requests alternating between two server processes. Checked in SQL afterwards:
 * the match is full again, the 100 promoted are exactly the first 100 in line (in line order), the
 * others still wait in their order, nobody twice, nobody both playing and waiting, the row counters
 * equal the rows, and each promoted user got one MATCH_SPOT_GRANTED.
 */
import type postgres from 'postgres';
import { burst, type Burst } from './match-subscribe';

export interface WaitlistResult {
  rounds: { name: string; burst: Burst; expected: number }[];
  invariants: [string, boolean][];
  answers: [string, boolean][];
}

export async function waitlistBurst(
  bases: string[],
  sql: postgres.Sql,
  matchId: string,
  players: { id: string; token: string }[],
  joiners: { id: string; token: string }[],
): Promise<WaitlistResult> {
  const maxPlayers = players.length;
  await sql`delete from match_players where match_id = ${matchId}`;
  await sql`delete from match_waitlist where match_id = ${matchId}`;
  // A run on a reused database (BENCH_REUSE_DB=1) counts only its own grants.
  await sql`delete from notifications
            where type = 'MATCH_SPOT_GRANTED' and data->>'matchId' = ${matchId}::text`;
  await sql`update matches set max_players = ${maxPlayers}, status = 'EM_BREVE',
              match_date = now() + interval '30 days' where id = ${matchId}`;
  // Seated straight in the table (the trigger keeps the counters): A, B, A, B, …
  for (const [i, p] of players.entries()) {
    await sql`insert into match_players (match_id, user_id, team)
              values (${matchId}, ${p.id}, ${i % 2 === 0 ? 'A' : 'B'})`;
  }
  const joins = await burst(bases, matchId, joiners, { method: 'POST', suffix: '/waitlist' });
  const line = (
    await sql<{ user_id: string }[]>`
      select user_id from match_waitlist where match_id = ${matchId} order by queued_at, id`
  ).map((r) => r.user_id);
  const leaving = players.slice(0, 100);
  const leaves = await burst(bases, matchId, leaving, { method: 'DELETE', suffix: '/unsubscribe' });

  const seated = (
    await sql<{ user_id: string }[]>`
      select user_id from match_players where match_id = ${matchId} order by subscribed_at, id`
  ).map((r) => r.user_id);
  const waiting = (
    await sql<{ user_id: string }[]>`
      select user_id from match_waitlist where match_id = ${matchId} order by queued_at, id`
  ).map((r) => r.user_id);
  const [state] = await sql<
    { a: number; b: number; counted: boolean; both: number; granted: number; grantedOk: boolean }[]
  >`
    select (select count(*)::int from match_players where match_id = m.id and team = 'A') as a,
           (select count(*)::int from match_players where match_id = m.id and team = 'B') as b,
           m.players_a = (select count(*) from match_players where match_id = m.id and team = 'A')
             and m.players_b = (select count(*) from match_players where match_id = m.id and team = 'B') as counted,
           (select count(*)::int from match_players p join match_waitlist w
              on w.match_id = p.match_id and w.user_id = p.user_id where p.match_id = m.id) as both,
           (select count(*)::int from notifications
              where type = 'MATCH_SPOT_GRANTED' and data->>'matchId' = m.id::text) as granted,
           (select count(distinct user_id) = count(*) from notifications
              where type = 'MATCH_SPOT_GRANTED' and data->>'matchId' = m.id::text) as "grantedOk"
    from matches m where m.id = ${matchId}`;
  const { a, b, counted, both, granted, grantedOk } = state!;
  const promoted = seated.filter((id) => line.includes(id));
  const firstHundred = line.slice(0, leaving.length);
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  const invariants: [string, boolean][] = [
    [`full again: ${a + b} players of ${maxPlayers}`, a + b === maxPlayers],
    [`teams within capacity (${a} A, ${b} B)`, a <= maxPlayers / 2 && b <= maxPlayers / 2],
    [
      `the ${leaving.length} promoted are the first in line, in line order`,
      same(promoted, firstHundred),
    ],
    [
      `the other ${waiting.length} still wait, in their order`,
      same(waiting, line.slice(leaving.length)),
    ],
    [
      `no user twice (${new Set(seated).size} distinct of ${seated.length})`,
      new Set(seated).size === seated.length,
    ],
    [`nobody both playing and waiting (${both})`, both === 0],
    ['the match row counters equal the rows per team', counted],
    [
      `one MATCH_SPOT_GRANTED per promoted user (${granted})`,
      granted === leaving.length && grantedOk,
    ],
  ];
  const errors = (r: Burst) => r.answers.filter((x) => x.status === 0 || x.status >= 500).length;
  const answers: [string, boolean][] = [
    [`join: 201 × ${joiners.length}`, joins.byOutcome.get('201') === joiners.length],
    [`leave: 200 × ${leaving.length}`, leaves.byOutcome.get('200') === leaving.length],
    [
      `no 5xx or network error (join ${errors(joins)}, leave ${errors(leaves)})`,
      errors(joins) + errors(leaves) === 0,
    ],
  ];
  return {
    rounds: [
      {
        name: `POST /match/:id/waitlist burst (${joiners.length} on a full match)`,
        burst: joins,
        expected: 201,
      },
      {
        name: `DELETE /match/:id/unsubscribe burst (${leaving.length} leave; each promotes)`,
        burst: leaves,
        expected: 200,
      },
    ],
    invariants,
    answers,
  };
}
