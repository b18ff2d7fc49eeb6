import { describe, expect, it } from 'vitest';
import { productionDependencies, productionSources } from './inventory';
import { documentedOperations } from './support';

/** HTTP and socket clients a request handler could be made to aim somewhere. */
const HTTP_CLIENTS = [
  'axios',
  'got',
  'node-fetch',
  'undici',
  'superagent',
  'request',
  'needle',
  'ky',
  'cross-fetch',
  'isomorphic-fetch',
  'phin',
  'ws',
];
/** Outbound network calls in source: fetch, node:http(s)/net/tls/dns/dgram as values (type imports are the server side). */
const OUTBOUND =
  /\bfetch\s*\(|\bnew\s+WebSocket\b|^import\s+(?!type\b)[^;]*from\s+['"](node:)?(https?|net|tls|dns|dgram|http2)['"]|require\(['"](node:)?(https?|net|tls|dns|dgram|http2)['"]\)/m;

/**
 * A source without its imports of node:http that bring in `createServer` and types only: the
 * listening side, which opens no connection.
 */
const withoutServerImports = (text: string) =>
  text.replace(
    /^import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?http['"];?$/gm,
    (line, names: string) =>
      names
        .split(',')
        .map((name) => name.trim())
        .every((name) => !name || name === 'createServer' || name.startsWith('type '))
        ? ''
        : line,
  );

describe('API7:2023 Server Side Request Forgery', () => {
  // Not applicable: the service makes no outbound request from user input (it only talks to its
  // configured database and, optionally, Redis). These checks keep that claim true.
  it('no input is a URL, no production dependency is an HTTP client, and no shipped source opens an outbound connection', () => {
    const inputs = documentedOperations.flatMap((op) => {
      const body = (
        op.operation.requestBody as
          { content?: { 'application/json'?: { schema?: { properties?: object } } } } | undefined
      )?.content?.['application/json']?.schema?.properties;
      const params = ((op.operation.parameters ?? []) as { name: string; schema?: object }[]).map(
        (p) => [p.name, p.schema] as const,
      );
      return [...Object.entries(body ?? {}), ...params].map(([name, schema]) => ({
        op: op.key,
        name,
        schema: JSON.stringify(schema),
      }));
    });
    expect(inputs.length).toBeGreaterThan(50);
    const urlLike = inputs.filter(
      (i) =>
        /url|uri|link|callback|webhook|host|endpoint|avatar|image/i.test(i.name) ||
        /"format":"(uri|url|hostname|ipv4|ipv6)"/.test(i.schema),
    );
    expect(urlLike).toEqual([]);

    expect(productionDependencies.filter((name) => HTTP_CLIENTS.includes(name))).toEqual([]);

    const sources = productionSources();
    expect(sources.length).toBeGreaterThan(30);
    expect(
      sources.filter((s) => OUTBOUND.test(withoutServerImports(s.text))).map((s) => s.file),
    ).toEqual([]);
  });
});
