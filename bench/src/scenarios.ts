/**
 * The scenarios of issue 7, each measured against its reference in the same rounds
 * (support.ts `compare`). Every answer is checked: status and a field, or the exact body.
 */
import { isDeepStrictEqual } from 'node:util';
import { atLeast, atMost, type Timing } from './ratios';
import { type Service } from './support';
import { compare, parse, rssMb, type Load, type RunResult } from './measure';

export const LIST_LIMIT = 10;
const POOLED_ROW = 'GET /post/:id through PgBouncer (transaction mode), REST adapter';
/** What the pooler's hop and unnamed statements may cost at most (docs/operations.md). */
const POOLED_GOAL = 0.6;
export const DEEP_PAGE = 1000;

/** A right page: the exact total, `limit` rows, and the expected first post (seed.ts numbering). */
function pageCheck(totalCount: number, page: number) {
  const firstTitle = `Post ${(page - 1) * LIST_LIMIT + 1}`;
  return (body: string) => {
    const parsed = parse<{ data: { title: string }[]; meta: { totalCount: number } }>(body);
    return (
      parsed?.meta.totalCount === totalCount &&
      parsed.data.length === LIST_LIMIT &&
      parsed.data[0]?.title === firstTitle
    );
  };
}

/** GET /post/ page 1 at the small and the large size, and a deep page at the large size. */
export async function feedPages(
  small: { service: Service; posts: number; auth: string },
  large: { service: Service; posts: number; auth: string },
  timing: Timing,
) {
  const page = (of: typeof small, n: number): Load => ({
    name: `GET /post/ page ${n} @ ${of.posts.toLocaleString('en')} posts`,
    service: of.service,
    path: n === 1 ? '/post/' : `/post/?page=${n}`,
    headers: { authorization: of.auth },
    check: pageCheck(of.posts, n),
  });
  const smallPage1 = page(small, 1);
  const largePage1 = page(large, 1);
  const deep = page(large, DEEP_PAGE);
  const results = await compare([smallPage1, largePage1, deep], timing);
  const [s, l, d] = results as [RunResult, RunResult, RunResult];
  return {
    results,
    ratios: [
      atLeast(
        'GET /post/ page 1: 1M posts / 10k posts, req/s',
        l.requestsPerSec / s.requestsPerSec,
        0.67,
        `${l.requestsPerSec.toFixed(0)} / ${s.requestsPerSec.toFixed(0)}`,
      ),
      atLeast(
        `GET /post/ page ${DEEP_PAGE} / page 1 (1M posts), req/s`,
        d.requestsPerSec / l.requestsPerSec,
        0.5,
        `${d.requestsPerSec.toFixed(0)} / ${l.requestsPerSec.toFixed(0)}`,
      ),
    ],
  };
}

/**
 * GET /post/:id through the REST adapter against the hand-written handler. First both must
 * answer the same document (so the baseline does the same work), then every answer is checked.
 */
export async function postRead(
  server: Service,
  handler: Service,
  postId: string,
  auth: string,
  timing: Timing,
  /** The same server behind a transaction-mode PgBouncer, when pgbouncer is installed. */
  pooled?: Service,
) {
  const path = `/post/${postId}`;
  const headers = { authorization: auth };
  const [ours, theirs] = await Promise.all(
    [server, handler].map(async (s) => (await fetch(`${s.url}${path}`, { headers })).json()),
  );
  if (!isDeepStrictEqual(ours, theirs)) {
    throw new Error(
      `the handler and the REST adapter answer differently:\n${JSON.stringify(ours)}\n${JSON.stringify(theirs)}`,
    );
  }
  const comments = (ours as { comments: unknown[] }).comments.length;
  const check = (body: string) => {
    const parsed = parse<{ id: string; comments: unknown[] }>(body);
    return parsed?.id === postId && parsed.comments.length === comments;
  };
  const results = await compare(
    [
      {
        name: 'GET /post/:id, hand-written Express + postgres.js handler',
        service: handler,
        path,
        headers,
        check,
      },
      { name: 'GET /post/:id, REST adapter', service: server, path, headers, check },
      ...(pooled
        ? [{ name: POOLED_ROW, service: pooled, path, headers, check } satisfies Load]
        : []),
    ],
    timing,
  );
  const [h, r, p] = results as [RunResult, RunResult, RunResult | undefined];
  return {
    results,
    ratios: [
      ...(p
        ? [
            atLeast(
              'GET /post/:id through PgBouncer / directly, req/s',
              p.requestsPerSec / r.requestsPerSec,
              POOLED_GOAL,
              `${p.requestsPerSec.toFixed(0)} / ${r.requestsPerSec.toFixed(0)}`,
            ),
          ]
        : []),
      atLeast(
        'GET /post/:id REST / handler, req/s',
        r.requestsPerSec / h.requestsPerSec,
        0.9,
        `${r.requestsPerSec.toFixed(0)} / ${h.requestsPerSec.toFixed(0)}`,
      ),
      atMost('GET /post/:id REST / handler, p99', r.p99 / h.p99, 1.2, `${r.p99} ms / ${h.p99} ms`),
    ],
  };
}

/**
 * The server's memory with 32 logins in flight (issue 34): each scrypt hash holds 128 MiB while
 * it runs, so without the bound on password work (docs/operations.md, "Password checks") 32 at
 * once would need 4 GiB. Three bursts of 32 logins sent at once, each burst answered before the
 * next (a client flooding again on each 503 would measure the flood, not the logins), on a
 * server started for it so that what earlier scenarios left in its heap does not count.
 */
export async function loginMemory(server: Service, login: { email: string; password: string }) {
  let rss = rssMb(server.pid);
  const sampler = setInterval(() => (rss = Math.max(rss, rssMb(server.pid))), 100);
  const statuses = new Map<string, number>();
  try {
    for (let burst = 0; burst < 3; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 32 }, async () => {
          const response = await fetch(`${server.url}/autenticacao/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: login.email, senha: login.password }),
          });
          const body = (await response.json()) as { reason?: string };
          return `${response.status}${body.reason ? ` ${body.reason}` : ''}`;
        }),
      );
      for (const answer of answers) statuses.set(answer, (statuses.get(answer) ?? 0) + 1);
    }
  } finally {
    clearInterval(sampler);
  }
  rss = Math.max(rss, rssMb(server.pid));
  const answered = [...statuses].map(([status, n]) => `${n} × ${status}`).join(', ');
  return atMost(
    'server RSS while 32 logins are in flight, MB',
    rss,
    500,
    `largest sample, every 100 ms, over 3 bursts of 32 at once: ${answered}`,
  );
}

export async function loginLoad(
  server: Service,
  login: { email: string; password: string },
  timing: Timing,
  rate: number,
) {
  const cheap = {
    service: server,
    path: '/health',
    connections: 8,
    overallRate: rate,
    check: (b: string) => b === '{"status":"ok"}',
  };
  const alone: Load = { name: `GET /health at ${rate}/s, alone`, ...cheap };
  const withLogins: Load = { name: `GET /health at ${rate}/s, while logins run`, ...cheap };
  const logins: Load = {
    name: 'POST /autenticacao/login (4 connections)',
    service: server,
    method: 'POST',
    path: '/autenticacao/login',
    body: JSON.stringify({ email: login.email, senha: login.password }),
    connections: 4,
    check: (b) =>
      typeof parse<{ dados?: { accessToken?: string } }>(b)?.dados?.accessToken === 'string',
  };
  const results = await compare([alone, [withLogins, logins]], timing);
  const [a, w] = results as [RunResult, RunResult, RunResult];
  return {
    results,
    ratios: [
      atMost(
        'GET /health p99 while logins run / alone',
        w.p99 / a.p99,
        2,
        `${w.p99} ms / ${a.p99} ms`,
      ),
    ],
  };
}

/** Reported without a target: a write, and a read of a match with its players. */
export async function others(
  server: Service,
  auth: string,
  author: { id: string; nickname: string },
  matchId: string,
  timing: Timing,
) {
  const headers = { authorization: auth };
  const title = 'Bench new post';
  return compare(
    [
      {
        name: 'POST /post/ (create)',
        service: server,
        method: 'POST',
        path: '/post/',
        headers,
        body: JSON.stringify({
          title,
          type: 'GENERAL',
          author: author.nickname,
          authorId: author.id,
        }),
        expectStatus: 201,
        check: (b) => parse<{ title: string }>(b)?.title === title,
      },
      {
        name: 'GET /match/:id',
        service: server,
        path: `/match/${matchId}`,
        headers,
        check: (b) => parse<{ id: string }>(b)?.id === matchId,
      },
    ],
    timing,
  );
}
