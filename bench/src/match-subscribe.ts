/**
 * Contention on one match across two server processes (issue 5, docs/contract/matches.md).
 *
 * `users.length` distinct users subscribe at the same moment to one match of maxPlayers 100; the
 * requests alternate between two server processes on the same PostgreSQL database. Every answer
 * is counted by status, latency is measured per request, and the invariants are then checked in
 * SQL: ≤ 100 players, team A ≤ 50, team B ≤ 50, |A − B| ≤ 1, nobody twice, and exactly the users
 * who got a 201 are in. A second round replays every request: the 100 players get 409, the rest
 * 403. A first round of GET /match/:id (no lock) is the baseline of the same run.
 */
import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';

interface Answer {
  status: number;
  reason?: string;
  userId: string;
  ms: number;
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export interface Burst {
  answers: Answer[];
  wallMs: number;
  p50: number;
  p99: number;
  max: number;
  byOutcome: Map<string, number>;
}

/** One request per user, all in flight at once, alternating between the servers. */
export async function burst(
  bases: string[],
  matchId: string,
  users: { id: string; token: string }[],
  request: { method: 'GET' | 'POST' | 'DELETE'; suffix: string },
): Promise<Burst> {
  const started = performance.now();
  const answers = await Promise.all(
    users.map(async (user, i): Promise<Answer> => {
      const t0 = performance.now();
      try {
        const res = await fetch(`${bases[i % bases.length]}/match/${matchId}${request.suffix}`, {
          method: request.method,
          headers: { authorization: `Bearer ${user.token}` },
        });
        const body = (await res.json()) as { reason?: string };
        return {
          status: res.status,
          reason: body.reason,
          userId: user.id,
          ms: performance.now() - t0,
        };
      } catch {
        return { status: 0, reason: 'NETWORK_ERROR', userId: user.id, ms: performance.now() - t0 };
      }
    }),
  );
  const wallMs = performance.now() - started;
  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
  const byOutcome = new Map<string, number>();
  for (const a of answers) {
    const key = `${a.status}${a.reason ? ` ${a.reason}` : ''}`;
    byOutcome.set(key, (byOutcome.get(key) ?? 0) + 1);
  }
  return {
    answers,
    wallMs,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1)!,
    byOutcome,
  };
}

export interface ContentionResult {
  users: number;
  maxPlayers: number;
  rounds: { name: string; burst: Burst; expected: number }[];
  /** Checked in SQL after the bursts. */
  invariants: [string, boolean][];
  /** The statuses and reasons answered. */
  answers: [string, boolean][];
  teams: { a: number; b: number };
}

export async function subscribeContention(
  bases: string[],
  sql: postgres.Sql,
  matchId: string,
  maxPlayers: number,
  players: { id: string; token: string }[],
): Promise<ContentionResult> {
  const count = players.length;
  // Warm both processes (JIT, pools, prepared statements) on another path first.
  await Promise.all(
    bases.flatMap((base) =>
      players
        .slice(0, 20)
        .map((p) =>
          fetch(`${base}/match/${matchId}`, { headers: { authorization: `Bearer ${p.token}` } }),
        ),
    ),
  );
  const baseline = await burst(bases, matchId, players, { method: 'GET', suffix: '' });
  const first = await burst(bases, matchId, players, { method: 'POST', suffix: '/subscribe' });
  const [rows] = await sql<
    { total: number; a: number; b: number; distinct_users: number; counted: boolean }[]
  >`
    select count(*)::int as total,
           (count(*) filter (where team = 'A'))::int as a,
           (count(*) filter (where team = 'B'))::int as b,
           count(distinct user_id)::int as distinct_users,
           (select players_a = count(*) filter (where team = 'A') and players_b = count(*) filter (where team = 'B')
              from matches where id = ${matchId}) as counted
    from match_players where match_id = ${matchId}`;
  const inTable = new Set(
    (
      await sql<
        { user_id: string }[]
      >`select user_id from match_players where match_id = ${matchId}`
    ).map((r) => r.user_id),
  );
  const winners = first.answers.filter((a) => a.status === 201).map((a) => a.userId);
  const replay = await burst(bases, matchId, players, { method: 'POST', suffix: '/subscribe' });
  const [after] = await sql<{ total: number }[]>`
    select count(*)::int as total from match_players where match_id = ${matchId}`;

  const { total, a, b, distinct_users, counted } = rows!;
  const half = maxPlayers / 2;
  const invariants: [string, boolean][] = [
    [`players ≤ ${maxPlayers} (${total})`, total <= maxPlayers],
    [`team A ≤ ${half} (${a})`, a <= half],
    [`team B ≤ ${half} (${b})`, b <= half],
    [`|A − B| ≤ 1 (${Math.abs(a - b)})`, Math.abs(a - b) <= 1],
    [`no user twice (${distinct_users} distinct of ${total})`, distinct_users === total],
    ['the match row counters equal the rows per team', counted],
    [
      'exactly the users answered 201 are in the table',
      winners.length === inTable.size && winners.every((id) => inTable.has(id)),
    ],
    [`the replay changed nothing (${after!.total} rows)`, after!.total === total],
  ];
  const serverErrors = (r: Burst) =>
    r.answers.filter((x) => x.status === 0 || x.status >= 500).length;
  const full = count - maxPlayers;
  const answers: [string, boolean][] = [
    [`baseline: 200 × ${count}`, baseline.byOutcome.get('200') === count],
    [
      `subscribe: 201 × ${maxPlayers}, 403 MATCH_FULL × ${full}`,
      winners.length === maxPlayers && (first.byOutcome.get('403 MATCH_FULL') ?? 0) === full,
    ],
    [
      `replay: 409 ALREADY_SUBSCRIBED × ${maxPlayers}, 403 MATCH_FULL × ${full}`,
      replay.byOutcome.get('409 ALREADY_SUBSCRIBED') === maxPlayers &&
        (replay.byOutcome.get('403 MATCH_FULL') ?? 0) === full,
    ],
    [
      `no 5xx or network error (baseline ${serverErrors(baseline)}, subscribe ${serverErrors(first)}, replay ${serverErrors(replay)})`,
      [baseline, first, replay].every((r) => serverErrors(r) === 0),
    ],
  ];
  return {
    users: count,
    maxPlayers,
    rounds: [
      { name: 'GET /match/:id burst (no lock; baseline)', burst: baseline, expected: 200 },
      { name: 'POST /match/:id/subscribe burst', burst: first, expected: 201 },
      { name: 'replay of the subscribe burst', burst: replay, expected: 409 },
    ],
    invariants,
    answers,
    teams: { a, b },
  };
}
