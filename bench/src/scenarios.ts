/**
 * The scenarios of issue 7, each measured against its reference in the same rounds
 * (support.ts `compare`). Every answer is checked: status and a field, or the exact body.
 */
import { get, type IncomingHttpHeaders } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { brotliDecompressSync } from 'node:zlib';
import { compare, log, parse, type Load, type RunResult, type Service } from './support';

export interface Timing {
  rounds: number;
  seconds: number;
  warmup: number;
}

export interface Ratio {
  target: string;
  value: number;
  /** e.g. "≥ 0.85" */
  goal: string;
  met: boolean;
  detail: string;
}

const atLeast = (target: string, value: number, goal: number, detail: string): Ratio => ({
  target,
  value,
  goal: `≥ ${goal.toFixed(2)}`,
  met: value >= goal,
  detail,
});
const atMost = (target: string, value: number, goal: number, detail: string): Ratio => ({
  target,
  value,
  goal: `≤ ${goal.toFixed(2)}`,
  met: value <= goal,
  detail,
});

export const LIST_LIMIT = 10;
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
  const at = (n: number) => `${n.toLocaleString('en')} posts`;
  const smallPage1: Load = {
    name: `GET /post/ page 1 @ ${at(small.posts)}`,
    service: small.service,
    path: '/post/',
    headers: { authorization: small.auth },
    check: pageCheck(small.posts, 1),
  };
  const largePage1: Load = {
    name: `GET /post/ page 1 @ ${at(large.posts)}`,
    service: large.service,
    path: '/post/',
    headers: { authorization: large.auth },
    check: pageCheck(large.posts, 1),
  };
  const deep: Load = {
    name: `GET /post/ page ${DEEP_PAGE} @ ${at(large.posts)}`,
    service: large.service,
    path: `/post/?page=${DEEP_PAGE}`,
    headers: { authorization: large.auth },
    check: pageCheck(large.posts, DEEP_PAGE),
  };
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
    ],
    timing,
  );
  const [h, r] = results as [RunResult, RunResult];
  return {
    results,
    ratios: [
      atLeast(
        'GET /post/:id REST / handler, req/s',
        r.requestsPerSec / h.requestsPerSec,
        0.85,
        `${r.requestsPerSec.toFixed(0)} / ${h.requestsPerSec.toFixed(0)}`,
      ),
      atMost('GET /post/:id REST / handler, p99', r.p99 / h.p99, 1.5, `${r.p99} ms / ${h.p99} ms`),
    ],
  };
}

/** GET `url` as raw bytes (no decompression), with its status and headers. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }>(
    (resolve, reject) => {
      get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(chunks),
          }),
        );
      }).on('error', reject);
    },
  );
}

/**
 * The cities of SP from memory against the hello-worlds. The client accepts compression as a
 * browser does (`accept-encoding: br, gzip, deflate`); the same list without compression is
 * reported beside it, and with `If-None-Match` every answer must be a 304.
 */
export async function staticList(
  server: Service,
  expressHello: Service,
  nodeHello: Service,
  timing: Timing,
) {
  const path = '/autenticacao/alunos/localidades/estados/SP/cidades';
  const browser = { 'accept-encoding': 'br, gzip, deflate' };
  const plain = await rawGet(`${server.url}${path}`, {});
  const compressed = await rawGet(`${server.url}${path}`, browser);
  const expected = plain.bytes.toString('utf8');
  const cities = parse<{ dados: { nome: string; uf: string }[] }>(expected)?.dados ?? [];
  const etag = compressed.headers.etag;
  // The server may or may not compress the list; either way the body must be the same list.
  const decoded =
    compressed.headers['content-encoding'] === 'br'
      ? brotliDecompressSync(compressed.bytes).toString('utf8')
      : compressed.bytes.toString('utf8');
  if (
    plain.status !== 200 ||
    compressed.status !== 200 ||
    !etag ||
    cities.length < 600 ||
    !cities.some((c) => c.nome === 'São Paulo') ||
    decoded !== expected
  ) {
    throw new Error(
      `GET ${path}: unexpected answers (${plain.status}/${compressed.status}, ${cities.length} cities, ETag ${etag}, br ${decoded === expected})`,
    );
  }
  // autocannon hands the body over as text: compare with the same decoding of the same bytes.
  const compressedText = compressed.bytes.toString('utf8');
  const hello = JSON.stringify({ hello: 'world' });
  const results = await compare(
    [
      { name: 'hello world, node:http', service: nodeHello, path: '/', check: (b) => b === hello },
      {
        name: 'hello world, Express 5',
        service: expressHello,
        path: '/',
        check: (b) => b === hello,
      },
      // The exact bytes checked above (645 cities, São Paulo among them), Brotli-compressed.
      {
        name: 'GET cities of SP (static list from memory; client accepts br)',
        service: server,
        path,
        headers: browser,
        check: (b) => b === compressedText,
      },
      {
        name: 'GET cities of SP, no compression',
        service: server,
        path,
        check: (b) => b === expected,
      },
      {
        name: 'GET cities of SP with If-None-Match (304)',
        service: server,
        path,
        headers: { ...browser, 'if-none-match': etag },
        expectStatus: 304,
        check: (b) => b === '',
      },
    ],
    timing,
  );
  const [, e, list, , notModified] = results as [
    RunResult,
    RunResult,
    RunResult,
    RunResult,
    RunResult,
  ];
  return {
    results,
    ratios: [
      atLeast(
        'cities of SP from memory / Express hello world, req/s',
        list.requestsPerSec / e.requestsPerSec,
        0.7,
        `${list.requestsPerSec.toFixed(0)} / ${e.requestsPerSec.toFixed(0)}`,
      ),
      {
        target: 'cities of SP with If-None-Match: every answer 304',
        value: notModified.requests
          ? (notModified.requests - notModified.wrongAnswers) / notModified.requests
          : 0,
        goal: '= 1.00',
        met: notModified.requests > 0 && notModified.wrongAnswers === 0 && notModified.errors === 0,
        detail: `${notModified.requests - notModified.wrongAnswers} of ${notModified.requests} answers 304 with no body`,
      },
    ],
  };
}

/**
 * A cheap endpoint (GET /health) at a fixed rate, alone and while logins run (scrypt, slow by
 * design). At a fixed rate p99 shows how long a request waits for the event loop, not queueing.
 */
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

export function logRatios(ratios: Ratio[]) {
  for (const r of ratios)
    log(
      `${r.met ? 'met    ' : 'NOT MET'} ${r.target}: ${r.value.toFixed(2)} (${r.goal}; ${r.detail})`,
    );
}
