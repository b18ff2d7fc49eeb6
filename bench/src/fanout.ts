/**
 * Fan-out (issue 14): 1,000 open `GET /match/:id/stream` on one match, split over two server
 * processes on one database; one subscribe through the first process must reach all 1,000. The
 * latency from the subscribe's answer (its commit is done by then) to each stream's event is
 * compared with the p99 of a burst of 1,000 GET /match/:id in the same run; the servers' RSS is
 * read before and after the streams open (the growth per 1,000 open streams).
 */
import { request, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type postgres from 'postgres';
import { burst, percentile } from './match-subscribe';
import { rssMb } from './measure';
import { POOL_MAX, tokenOf } from './options';
import { atMost, type Ratio } from './ratios';
import type { Seeded } from './seeding';
import { log, sleep, startServer, stopProcess, type Service } from './support';

const STREAMS = 1_000;

interface OpenStream {
  /** `performance.now()` of each event's arrival, with its data. */
  events: { at: number; data: unknown }[];
  close(): void;
}

/** A plain SSE reader on node:http (one socket per stream, as 1,000 browsers would have). */
function openStream(url: string, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const events: OpenStream['events'] = [];
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, agent: false });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          events.push({ at: performance.now(), data: JSON.parse(data.slice(6)) });
          if (events.length === 1) resolve({ events, close: () => req.destroy() });
        }
      });
      res.on('error', () => {});
    });
    req.end();
  });
}

export interface FanoutResult {
  streams: number;
  received: number;
  /** From the subscribe's answer to each stream's event, ms. */
  p50: number;
  p99: number;
  max: number;
  /** p99 of 1,000 GET /match/:id at once, same run. */
  getP99: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

export async function runFanout(server: Service, large: Seeded, sql: postgres.Sql) {
  const matchId = large.matchIds!.at(-2)!;
  await sql`delete from match_players where match_id = ${matchId}`;
  // The waiting-list burst uses this match too: on a reused database its 900 still wait, and
  // every read and stream event would carry them.
  await sql`delete from match_waitlist where match_id = ${matchId}`;
  await sql`update matches set max_players = 100, status = 'EM_BREVE' where id = ${matchId}`;
  const users = large.users.slice(0, STREAMS).map((u) => ({ id: u.id, token: tokenOf(u) }));
  const subscriber = large.users.at(-1)!;
  const second = await startServer('server (second process)', {
    DATABASE_URL: large.url,
    DATABASE_POOL_MAX: POOL_MAX,
  });
  const servers = [server, second];
  const rss = () => servers.reduce((sum, s) => sum + rssMb(s.pid), 0);
  const streams: OpenStream[] = [];
  try {
    await sleep(1000);
    // Before any burst: a burst's garbage would hide what the streams hold.
    const rssBeforeMb = rss();
    // Opened 100 at a time (a browser population arrives over time, not in one tick).
    for (let i = 0; i < users.length; i += 100) {
      streams.push(
        ...(await Promise.all(
          users
            .slice(i, i + 100)
            .map((u, j) =>
              openStream(`${servers[(i + j) % 2]!.url}/match/${matchId}/stream`, u.token),
            ),
        )),
      );
    }
    await sleep(1000);
    const rssAfterMb = rss();
    log(
      `fan-out: ${streams.length} streams open; RSS ${rssBeforeMb.toFixed(0)} → ${rssAfterMb.toFixed(0)} MB`,
    );

    // The baseline, with the streams open: 1,000 GET /match/:id at once over both processes.
    const get = await burst(
      servers.map((s) => s.url),
      matchId,
      users,
      { method: 'GET', suffix: '' },
    );
    await sleep(1000);
    const res = await fetch(`${server.url}/match/${matchId}/subscribe`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf(subscriber)}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    const committed = performance.now();
    if (res.status !== 201)
      throw new Error(`subscribe answered ${res.status}: ${await res.text()}`);
    const deadline = Date.now() + 10_000;
    const arrived = () => streams.filter((s) => s.events.length >= 2).length;
    while (arrived() < streams.length && Date.now() < deadline) await sleep(20);
    const latencies = streams
      .filter((s) => s.events.length >= 2)
      .map((s) => s.events[1]!.at - committed)
      .sort((a, b) => a - b);
    const shows = (s: OpenStream) =>
      JSON.stringify(s.events[1]?.data ?? {}).includes(subscriber.id);
    const result: FanoutResult = {
      streams: streams.length,
      received: streams.filter(shows).length,
      p50: latencies.length ? percentile(latencies, 50) : NaN,
      p99: latencies.length ? percentile(latencies, 99) : NaN,
      max: latencies.at(-1) ?? NaN,
      getP99: get.p99,
      rssBeforeMb,
      rssAfterMb,
    };
    return result;
  } finally {
    for (const s of streams) s.close();
    await sleep(200);
    await stopProcess(second);
  }
}

export function fanoutRatios(f: FanoutResult): Ratio[] {
  const perThousand = ((f.rssAfterMb - f.rssBeforeMb) * 1000) / f.streams;
  return [
    {
      target: `fan-out: one subscribe reaches ${f.streams} streams on two processes`,
      value: f.received / f.streams,
      goal: '= 1.00',
      met: f.received === f.streams,
      detail: `${f.received} of ${f.streams} received the new player`,
    },
    atMost(
      'fan-out p99, subscribe answered → event / 1,000-GET burst p99',
      f.p99 / f.getP99,
      1,
      `p99 ${f.p99.toFixed(0)} ms (p50 ${f.p50.toFixed(0)}, max ${f.max.toFixed(0)}) / ${f.getP99.toFixed(0)} ms; RSS +${perThousand.toFixed(0)} MB per 1,000 open streams (${f.rssBeforeMb.toFixed(0)} → ${f.rssAfterMb.toFixed(0)} MB, both processes)`,
    ),
  ];
}
