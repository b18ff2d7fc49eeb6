/** The static city list from memory against Express's hello world, compressed, plain and 304. */
import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { atLeast, type Timing } from './ratios';
import { type Service } from './support';
import { compare, parse, type RunResult } from './measure';

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
        0.95,
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
